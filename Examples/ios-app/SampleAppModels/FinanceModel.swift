import Foundation
import Safepocket

/// Safepocket's accounts and a month's transactions, from the server or,
/// offline, from the cache with their age; and a transaction's category or
/// note changed, sent or queued while offline (once, with its
/// `Idempotency-Key`).
@MainActor
public final class FinanceModel: ScreenModel {
    /// The accounts shown.
    public private(set) var accounts: [Account] = [] { didSet { onChange?() } }
    /// The transactions shown.
    public private(set) var transactions: [Transaction] = [] { didSet { onChange?() } }
    /// How old what is shown is, when it came from the cache (nil: from the server).
    public private(set) var cacheAge: Duration? { didSet { onChange?() } }
    /// Changes waiting to be sent.
    public private(set) var pendingCount = 0 { didSet { onChange?() } }
    /// The message of the last failure or queued change, for the user.
    public private(set) var message: String? { didSet { onChange?() } }
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private let safepocket: Safepocket

    /// The finances of `safepocket`'s signed-in user.
    public init(safepocket: Safepocket) {
        self.safepocket = safepocket
    }

    /// Loads the accounts and the month's (`YYYY-MM`) transactions.
    public func load(month: String) async {
        do {
            let accountList = try await safepocket.accounts()
            let transactionList = try await safepocket.transactions(month: month)
            accounts = accountList.value.accounts
            transactions = transactionList.value.transactions
            cacheAge = [accountList.source, transactionList.source].compactMap { source -> Duration? in
                if case .cache(let age) = source { return age }
                return nil
            }.max()
            message = nil
        } catch {
            message = error.userMessage
        }
        pendingCount = await safepocket.pendingWrites().count
    }

    /// Changes a transaction's category and note.
    public func edit(_ transaction: Transaction, category: String?, notes: String?) async {
        let update = TransactionUpdate(category: category, notes: notes.map { .value($0) })
        do {
            switch try await safepocket.updateTransaction(id: transaction.id, update) {
            case .sent(let updated):
                transactions = transactions.map { $0.id == updated.id ? updated : $0 }
                message = nil
            case .queued:
                message = "Saved. It will be sent when you are back online."
            }
        } catch {
            message = error.userMessage
        }
        pendingCount = await safepocket.pendingWrites().count
    }
}
