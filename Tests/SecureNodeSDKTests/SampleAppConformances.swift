import PlatformRules
import SampleAppModels

// The iOS sample app's seams, kept by the platform doubles: the doubles know
// iOS's rules, not the sample app, so the conformance is declared where the
// two meet.
extension SimulatedContacts: ContactsPermission {}
