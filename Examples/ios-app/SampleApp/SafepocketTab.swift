import Safepocket
import SampleAppModels
import SwiftUI

/// Safepocket: the hosted sign-in, then accounts and the month's transactions.
struct SafepocketTab: View {
    let services: AppServices

    var body: some View {
        NavigationStack {
            if let safepocket = services.safepocket {
                SafepocketFlow(
                    signIn: ObservedScreen(SafepocketSignInModel(safepocket: safepocket, redirectURI: services.safepocketRedirectURI)),
                    finance: ObservedScreen(FinanceModel(safepocket: safepocket)), tracker: services.tracker)
                    .navigationTitle(SampleScreens.safepocket)
            } else {
                SetupProblem(text: services.problems.first { $0.hasPrefix("Safepocket") } ?? "Safepocket did not start")
            }
        }
    }
}

struct SafepocketFlow: View {
    @StateObject var signIn: ObservedScreen<SafepocketSignInModel>
    @StateObject var finance: ObservedScreen<FinanceModel>
    let tracker: TrackerModel
    @State private var browser = WebSignIn()

    init(signIn: ObservedScreen<SafepocketSignInModel>, finance: ObservedScreen<FinanceModel>, tracker: TrackerModel) {
        _signIn = StateObject(wrappedValue: signIn)
        _finance = StateObject(wrappedValue: finance)
        self.tracker = tracker
    }

    var body: some View {
        Group {
            switch signIn.model.step {
            case .signedOut, .browsing:
                VStack(spacing: 16) {
                    Button("Sign in with Safepocket") { Task { await signInWithBrowser() } }
                        .buttonStyle(.borderedProminent)
                    if let message = signIn.model.message { Text(message).foregroundStyle(.red) }
                }
            case .signedIn:
                FinanceScreen(screen: finance)
                    .toolbar { Button("Sign out") { Task { await signIn.model.signOut() } } }
            }
        }
        .task { await signIn.model.start() }
        // The redirect can also arrive through the app's URL scheme (a relaunch while the browser was open).
        .onOpenURL { url in Task { await signIn.model.complete(redirect: url) } }
    }

    private func signInWithBrowser() async {
        await signIn.model.signIn(using: browser)
        if signIn.model.step == .signedIn { await tracker.signedIn(userID: "safepocket-user") }
    }
}

/// Accounts and transactions (cached offline with their age), a transaction's category edited.
struct FinanceScreen: View {
    @ObservedObject var screen: ObservedScreen<FinanceModel>
    @Environment(\.scenePhase) private var scenePhase
    @State private var editing: SafepocketAPI.Transaction?
    @State private var category = ""

    private static var month: String {
        let components = Calendar(identifier: .gregorian).dateComponents([.year, .month], from: Date())
        return String(format: "%04d-%02d", components.year ?? 2024, components.month ?? 1)
    }

    var body: some View {
        content
            // The app switcher's snapshot shows the cover, not the balances.
            .overlay {
                if AppSwitcherCover.covers(showingFinances: true, activity: AppActivity(scenePhase)) {
                    ZStack {
                        Rectangle().fill(.background)
                        Label("Safepocket", systemImage: "lock.fill").font(.title2)
                    }
                }
            }
    }

    private var content: some View {
        VStack(spacing: 0) {
            OfflineBanner(isOffline: screen.model.cacheAge != nil, age: screen.model.cacheAge)
            List {
                if let message = screen.model.message { Text(message).font(.footnote) }
                if screen.model.pendingCount > 0 { Text("\(screen.model.pendingCount) changes waiting to be sent").font(.footnote) }
                Section("Accounts") {
                    ForEach(screen.model.accounts, id: \.id) { account in
                        LabeledContent(account.name, value: "\(account.balance)")
                    }
                }
                Section("Transactions") {
                    ForEach(screen.model.transactions, id: \.id) { transaction in
                        Button(transaction.merchantName) {
                            category = transaction.category ?? ""
                            editing = transaction
                        }
                    }
                }
            }
            .refreshable { await screen.model.load(month: Self.month) }
        }
        .task { await screen.model.load(month: Self.month) }
        .sheet(item: $editing) { transaction in
            NavigationStack {
                Form {
                    Section(transaction.merchantName) { TextField("Category", text: $category) }
                }
                    // A fixed title: screen tracking reads it, and the merchant is the user's data.
                    .navigationTitle(SampleScreens.transaction)
                    .toolbar {
                        Button("Save") {
                            let chosen = category
                            editing = nil
                            Task { await screen.model.edit(transaction, category: chosen, notes: nil) }
                        }
                    }
            }
        }
    }
}

extension SafepocketAPI.Transaction: @retroactive Identifiable {}

extension AppActivity {
    /// The activity SwiftUI reports as `phase`.
    init(_ phase: ScenePhase) {
        switch phase {
        case .active: self = .active
        case .background: self = .background
        default: self = .inactive
        }
    }
}
