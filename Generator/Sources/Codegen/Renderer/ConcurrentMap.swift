import Dispatch

/// `items.map(transform)` spread over the machine's cores, in the same
/// order: rendering a large client's types and operations is independent
/// work per item, so a 2-core machine renders them in about half the time.
/// The output does not depend on the schedule: each result lands at its
/// item's index.
func concurrentMap<Item: Sendable, Result: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Result) -> [Result] {
    guard items.count > 1 else { return items.map(transform) }
    let slots = ResultSlots<Result>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: items.count) { index in
        slots.store(transform(items[index]), at: index)
    }
    return slots.results()
}

/// The results of ``concurrentMap(_:_:)``, one slot per item.
///
/// `@unchecked Sendable` is safe here: every slot is written exactly once,
/// by the one iteration that owns its index, so no two threads touch the
/// same slot; and the slots are read only after `concurrentPerform` has
/// returned, which happens after every iteration has finished.
private final class ResultSlots<Result>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Result?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func store(_ result: Result, at index: Int) {
        storage[index] = result
    }

    func results() -> [Result] {
        storage.map { $0! }
    }
}
