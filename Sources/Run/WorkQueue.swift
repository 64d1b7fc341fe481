import Dispatch
import Synchronization

/// The items of one phase of a run, handed to the workers in order, with one exception: an item known to need
/// whole-image memory (`need`, asked once per item, outside the lock) that does not fit beside the items in their
/// chains, by the memory budget's rule (`PixelBudget`), is put aside, and the worker takes the next item instead.
/// An item put aside is taken first as soon as it fits. So the budget costs no worker its time while other photos
/// wait, and a photo put aside holds none of its bytes in memory (docs/scheduler.md, "Memory budget").
///
/// An item whose need is not known here (0) still gets its reservation from `PixelBudget` in its stage, which
/// waits if it must: this queue only spares the wait where it can.
final class WorkQueue<Item: Sendable>: Sendable {
    /// An item a worker took, and the need it holds in the queue until `finished`.
    struct Taken {
        package let item: Item
        package let need: Int
    }

    private struct State {
        var next = 0
        var putAside: [Taken] = []
        /// The needs of the items in their chains now, summed.
        var inChains = 0
    }

    /// What a worker does next: return an item, ask an item's need, wait for a chain to end, or stop.
    private enum Step { case taken(Taken), ask(Item), wait, done }

    /// The items, made one at a time as they are taken (a phase of 10^5 files keeps no list of them).
    private let count: Int
    private let item: @Sendable (Int) -> Item
    private let capacity: Int
    private let state = Mutex(State())
    private let changed = DispatchSemaphore(value: 0)
    private let waiters = Mutex(0)

    /// - Parameter capacity: the memory budget, in the unit of the needs (`PixelBudget.capacity`).
    package convenience init(_ items: [Item], capacity: Int) {
        self.init(count: items.count, item: { items[$0] }, capacity: capacity)
    }

    /// - Parameter item: the item at an index below `count`, asked once per index, in order, under the queue's lock.
    package init(count: Int, item: @escaping @Sendable (Int) -> Item, capacity: Int) {
        self.count = count
        self.item = item
        self.capacity = capacity
    }

    /// The next item, or nil when every item is taken or `stopped()` says to start no more.
    /// - Parameter need: an item's whole-image memory, in the budget's unit (0: none, or not known).
    package func take(need: (Item) -> Int, stopped: () -> Bool) -> Taken? {
        while !stopped() {
            let step: Step = state.withLock { state in
                if let first = state.putAside.first, fits(first.need, beside: state.inChains) {
                    state.putAside.removeFirst()
                    state.inChains += first.need
                    return .taken(first)
                }
                if state.next < count {
                    defer { state.next += 1 }
                    return .ask(item(state.next))
                }
                return state.putAside.isEmpty ? .done : .wait
            }
            switch step {
            case .taken(let taken):
                return taken
            case .ask(let item):
                let taken = Taken(item: item, need: max(0, need(item)))
                guard taken.need > 0 else { return taken }
                let admitted = state.withLock { state in
                    guard fits(taken.need, beside: state.inChains) else {
                        state.putAside.append(taken)
                        return false
                    }
                    state.inChains += taken.need
                    return true
                }
                if admitted { return taken }
            case .wait:
                // Only items put aside are left, and they do not fit yet: wait for a chain to end.
                waiters.withLock { $0 += 1 }
                _ = changed.wait(timeout: .now() + .milliseconds(50))
                waiters.withLock { $0 -= 1 }
            case .done:
                return nil
            }
        }
        return nil
    }

    /// Ends a taken item's chain, freeing its need.
    package func finished(_ taken: Taken) {
        guard taken.need > 0 else { return }
        state.withLock { $0.inChains -= taken.need }
        let waiting = waiters.withLock { $0 }
        for _ in 0..<waiting { changed.signal() }
    }

    private func fits(_ need: Int, beside inChains: Int) -> Bool {
        PixelBudget.fits(need, beside: inChains, capacity: capacity)
    }
}
