import Combine
import SampleAppModels
import SwiftUI

/// A view model as SwiftUI observes it: every change the model announces
/// (``ScreenModel/onChange``) redraws the views reading it.
@MainActor
final class ObservedScreen<Model: ScreenModel>: ObservableObject {
    /// The model the view reads and calls.
    let model: Model

    init(_ model: Model) {
        self.model = model
        model.onChange = { [weak self] in self?.objectWillChange.send() }
    }
}
