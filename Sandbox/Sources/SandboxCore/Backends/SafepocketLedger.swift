import Foundation
import RuntimeSupport

/// Safepocket's finance data, generated from a seed: two linked accounts and
/// a year of transactions ending with a given month (payroll, rent, bills
/// and everyday spending, the newest few still pending). One seed and one
/// month give the same ledger on every run.
struct SafepocketLedger {
    struct Account {
        let id: String
        let name: String
        let institution: String
        var balanceCents: Int
        let createdAt: Date
    }

    struct Transaction {
        let id: String
        let accountID: String
        let merchant: String
        let amountCents: Int
        let occurredAt: Date
        let authorizedAt: Date?
        let pending: Bool
        var category: String
        let statement: String
        var notes: String?
        /// `YYYY-MM` of ``occurredAt``.
        let month: String
    }

    private(set) var accounts: [Account] = []
    /// Newest first.
    private(set) var transactions: [Transaction] = []
    private var indexByID: [String: Int] = [:]

    /// Everyday spending: merchant, category, statement text, and the range of cents spent.
    private static let spending: [(String, String, String, ClosedRange<Int>)] = [
        ("Whole Foods Market", "Groceries", "WHOLEFDS MKT 10234", 3_500...14_000),
        ("Trader Joe's", "Groceries", "TRADER JOE S #118", 2_000...9_000),
        ("Blue Bottle Coffee", "Dining", "BLUE BOTTLE COFFEE SF", 400...950),
        ("Chipotle", "Dining", "CHIPOTLE 2231", 900...1_800),
        ("Lyft", "Transport", "LYFT *RIDE", 800...3_500),
        ("Amazon", "Shopping", "AMZN MKTP US", 1_000...9_000),
        ("Netflix", "Entertainment", "NETFLIX.COM", 1_549...1_549),
    ]

    /// The ledger of `seed`: `months` months ending with `lastMonth` (year, month).
    init(seed: UInt64, lastMonth: (year: Int, month: Int), months: Int = 12) {
        var random = SplitMix64(seed: seed)
        func uuid() -> String {
            let high = random.next(), low = random.next()
            let hex = String(format: "%016llx%016llx", high, low)
            let chars = Array(hex)
            var text = String(chars[0..<8]) + "-" + String(chars[8..<12]) + "-4" + String(chars[13..<16]) + "-"
            text += String("89ab"[String.Index(utf16Offset: Int(low % 4), in: "89ab")]) + String(chars[17..<20]) + "-" + String(chars[20..<32])
            return text
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
            calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        }
        var first = (year: lastMonth.year, month: lastMonth.month - (months - 1))
        while first.month < 1 { first = (first.year - 1, first.month + 12) }
        let linked = date(first.year, first.month, 1, 12, 30)
        let checking = Account(id: uuid(), name: "Plaid Checking", institution: "First Platypus Bank", balanceCents: 250_000, createdAt: linked)
        let saving = Account(id: uuid(), name: "Plaid Saving", institution: "First Platypus Bank", balanceCents: 500_000, createdAt: linked)
        var made: [Transaction] = []
        var month = first
        for index in 0..<months {
            let tag = String(format: "%04d-%02d", month.year, month.month)
            let isLast = index == months - 1
            func add(_ account: Account, _ merchant: String, _ category: String, _ statement: String, _ cents: Int, day: Int, pending: Bool = false) {
                let occurred = date(month.year, month.month, day, Int(random.next() % 24), Int(random.next() % 60))
                let authorized = random.next() % 2 == 0 ? occurred.addingTimeInterval(-Double(random.next() % 600)) : nil
                made.append(Transaction(
                    id: uuid(), accountID: account.id, merchant: merchant, amountCents: cents, occurredAt: occurred, authorizedAt: pending ? occurred : authorized,
                    pending: pending, category: category, statement: statement, notes: nil, month: tag))
            }
            add(checking, "Acme Payroll", "Income", "ACME PAYROLL DIRECT DEP", 160_000, day: 1)
            add(checking, "Acme Payroll", "Income", "ACME PAYROLL DIRECT DEP", 160_000, day: 15)
            add(checking, "Parkside Apartments", "Rent", "PARKSIDE APTS RENT", -122_000, day: 2)
            add(checking, "PG&E", "Utilities", "PGANDE WEB ONLINE", -Int(6_000 + random.next() % 6_000), day: 20)
            add(saving, "Transfer from checking", "Transfer", "ONLINE TRANSFER FROM CHK", 20_000, day: 16)
            for spend in 0..<14 {
                let (merchant, category, statement, range) = Self.spending[Int(random.next() % UInt64(Self.spending.count))]
                let cents = range.lowerBound + Int(random.next() % UInt64(range.count))
                add(checking, merchant, category, statement, -cents, day: 1 + Int(random.next() % 28), pending: isLast && spend >= 12)
            }
            month = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
        }
        transactions = made.sorted { ($0.occurredAt, $0.id) > ($1.occurredAt, $1.id) }
        accounts = [checking, saving].map { account in
            var account = account
            account.balanceCents += made.filter { $0.accountID == account.id }.reduce(0) { $0 + $1.amountCents }
            return account
        }
        indexByID = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.id, $0) })
    }

    /// The transaction with `id`, if any.
    func transaction(_ id: String) -> Transaction? { indexByID[id.lowercased()].map { transactions[$0] } }

    /// Changes a transaction's category or notes; false when there is none with `id`.
    mutating func update(_ id: String, _ change: (inout Transaction) -> Void) -> Transaction? {
        guard let index = indexByID[id.lowercased()] else { return nil }
        change(&transactions[index])
        return transactions[index]
    }

    /// A money amount as the API writes it (a JSON number with two decimals at most).
    static func money(_ cents: Int) -> Decimal { Decimal(cents) / 100 }

    static func json(_ account: Account, currency: String) -> [String: Any] {
        [
            "id": account.id, "name": account.name, "institution": account.institution, "balance": money(account.balanceCents),
            "currency": currency, "createdAt": SandboxJSON.timestamp(account.createdAt),
        ]
    }

    static func json(_ transaction: Transaction, currency: String) -> [String: Any] {
        [
            "id": transaction.id, "accountId": transaction.accountID, "merchantName": transaction.merchant,
            "amount": money(transaction.amountCents), "currency": currency, "occurredAt": SandboxJSON.timestamp(transaction.occurredAt),
            "authorizedAt": transaction.authorizedAt.map { SandboxJSON.timestamp($0) } ?? NSNull(), "pending": transaction.pending,
            "category": transaction.category, "description": transaction.statement, "notes": transaction.notes ?? NSNull(),
        ]
    }
}
