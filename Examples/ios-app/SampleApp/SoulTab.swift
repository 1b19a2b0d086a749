import SampleAppModels
import Soul
import SwiftUI

/// SOUL: the OTP sign-in, then the moods.
struct SoulTab: View {
    let services: AppServices

    var body: some View {
        NavigationStack {
            if let soul = services.soul {
                SoulFlow(
                    signIn: ObservedScreen(SoulSignInModel(soul: soul, consent: services.soulConsent, funnel: services.soulFunnel)),
                    moods: ObservedScreen(MoodsModel(soul: soul, funnel: services.soulFunnel)), tracker: services.tracker)
                    .navigationTitle(SampleScreens.soul)
            } else {
                SetupProblem(text: services.problems.first { $0.hasPrefix("SOUL") } ?? "SOUL did not start")
            }
        }
    }
}

struct SoulFlow: View {
    @StateObject var signIn: ObservedScreen<SoulSignInModel>
    @StateObject var moods: ObservedScreen<MoodsModel>
    let tracker: TrackerModel

    init(signIn: ObservedScreen<SoulSignInModel>, moods: ObservedScreen<MoodsModel>, tracker: TrackerModel) {
        _signIn = StateObject(wrappedValue: signIn)
        _moods = StateObject(wrappedValue: moods)
        self.tracker = tracker
    }

    var body: some View {
        Group {
            switch signIn.model.step {
            case .phone: PhoneEntry(screen: signIn)
            case .code(let masked, let preview): CodeEntry(screen: signIn, maskedPhone: masked, previewCode: preview)
            case .consent: ConsentScreen(screen: signIn)
            case .signedIn: MoodsScreen(screen: moods, onSignOut: { Task { await signIn.model.signOut() } })
            }
        }
        .task { await signIn.model.start() }
        .onChange(of: signIn.model.step) { step in
            if step == .signedIn { Task { await tracker.signedIn(userID: "soul-user") } }
        }
    }
}

/// The phone number, checked as E.164 while it is typed.
struct PhoneEntry: View {
    @ObservedObject var screen: ObservedScreen<SoulSignInModel>
    @State private var phone = ""

    var body: some View {
        Form {
            Section {
                TextField("+14155550123", text: $phone)
                    .keyboardType(.phonePad)
                    .textContentType(.telephoneNumber)
                    .onChange(of: phone) { screen.model.phoneText = $0 }
                if let problem = screen.model.phoneProblem { Text(problem).font(.footnote).foregroundStyle(.red) }
            } header: {
                Text("Your phone number")
            } footer: {
                Text("In international format: + and the country code.")
            }
            if let message = screen.model.message { Text(message).foregroundStyle(.red) }
            CountdownButton(title: "Send code", screen: screen) { await screen.model.requestCode() }
                .disabled(phone.isEmpty || screen.model.phoneProblem != nil)
        }
    }
}

/// The 6-digit code, with the resend countdown.
struct CodeEntry: View {
    @ObservedObject var screen: ObservedScreen<SoulSignInModel>
    let maskedPhone: String
    let previewCode: String?
    @State private var code = ""

    var body: some View {
        Form {
            Section {
                TextField("123456", text: $code)
                    .keyboardType(.numberPad)
                    .textContentType(.oneTimeCode)
            } header: {
                Text("The code sent to \(maskedPhone)")
            } footer: {
                if let previewCode { Text("Staging preview code: \(previewCode)") }
            }
            if let message = screen.model.message { Text(message).foregroundStyle(.red) }
            Button("Sign in") { Task { await screen.model.verify(code: code) } }
                .disabled(code.count != 6 || screen.model.isWorking)
            CountdownButton(title: "Send a new code", screen: screen) { await screen.model.resend() }
            Button("Change number") { screen.model.changeNumber() }
        }
    }
}

/// After the code: the consent to go on using the app, or sign out.
struct ConsentScreen: View {
    @ObservedObject var screen: ObservedScreen<SoulSignInModel>

    var body: some View {
        Form {
            Section {
                Text("SOUL keeps the moods you record on its servers, linked to your phone number, to show them on your devices.")
                Text("You can sign out at any time; signing out forgets this consent.")
            } header: {
                Text("Before you go on")
            }
            Button("Continue") { screen.model.acceptConsent() }
            Button("Sign out", role: .destructive) { Task { await screen.model.declineConsent() } }
        }
    }
}

/// A button disabled while the resend cooldown (or a 429's Retry-After) runs, counting down.
struct CountdownButton: View {
    let title: String
    @ObservedObject var screen: ObservedScreen<SoulSignInModel>
    let action: () async -> Void

    var body: some View {
        TimelineView(.periodic(from: .now, by: 1)) { _ in
            let wait = screen.model.secondsUntilResend
            Button(wait > 0 ? "\(title) in \(wait) s" : title) { Task { await action() } }
                .disabled(wait > 0 || screen.model.isWorking)
        }
    }
}

/// The moods, cached offline with their age, and a new one (queued offline).
struct MoodsScreen: View {
    @ObservedObject var screen: ObservedScreen<MoodsModel>
    let onSignOut: () -> Void
    @State private var score = 7.0

    var body: some View {
        VStack(spacing: 0) {
            OfflineBanner(isOffline: screen.model.isOffline, age: screen.model.cacheAge)
            List {
                Section("How do you feel?") {
                    Slider(value: $score, in: 1...10, step: 1) { Text("Score") }
                    Button("Add mood \(Int(score))") { Task { await screen.model.add(score: Int32(score), note: nil) } }
                    if screen.model.pendingCount > 0 { Text("\(screen.model.pendingCount) waiting to be sent").font(.footnote) }
                    if let message = screen.model.message { Text(message).font(.footnote) }
                }
                Section("Moods") {
                    // The moods payload is the spec's guess: any field may be missing.
                    ForEach(Array(screen.model.moods.enumerated()), id: \.offset) { _, mood in
                        Text(mood.score.map { "\($0)/10" } ?? "no score").badge(mood.note ?? "")
                    }
                }
            }
            .refreshable { await screen.model.retryPending() }
        }
        .toolbar { Button("Sign out", action: onSignOut) }
        .task { await screen.model.load() }
    }
}
