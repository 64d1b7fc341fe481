import Synchronization
import Dispatch

/// Bounds the decoded pixels in flight across workers, so a folder of 50 MP photos cannot exhaust memory.
///
/// A worker reserves a photo's pixel count before a rendering that holds the whole image in memory, and releases
/// it after. A reservation larger than the whole budget waits until nothing else is reserved, then runs alone.
///
/// A reservation above `largeLimit` is *large*, and at most one large reservation is in flight at a time, whatever
/// room the budget has left: beside the largest decode there are only small ones, so a run's peak is that one photo's
/// need plus little, not two whole-image buffers that happen to fit the budget together (docs/scheduler.md, "Memory
/// budget").
final class PixelBudget: Sendable {
    private let capacity: Int
    private let largeLimit: Int
    private let state = Mutex((used: 0, large: 0))
    private let changed = DispatchSemaphore(value: 0)
    private let waiters = Mutex(0)

    /// - Parameters:
    ///   - megapixels: the budget (`--memory-budget`).
    ///   - largeMegapixels: a reservation above this is large; `Int.max` lets any two share the budget.
    init(megapixels: Int, largeMegapixels: Int = .max) {
        capacity = max(1, megapixels) * 1_000_000
        largeLimit = largeMegapixels >= Int.max / 1_000_000 ? .max : max(0, largeMegapixels) * 1_000_000
    }

    /// Runs `body` with `pixels` reserved.
    func withReservation<T>(_ pixels: Int, _ body: () throws -> T) rethrows -> T {
        let amount = min(max(pixels, 0), capacity)
        let large = pixels > largeLimit
        while !state.withLock({ state in
            guard state.used == 0 || (state.used + amount <= capacity && !(large && state.large > 0)) else { return false }
            state.used += amount
            if large { state.large += 1 }
            return true
        }) {
            waiters.withLock { $0 += 1 }
            _ = changed.wait(timeout: .now() + .milliseconds(50))
            waiters.withLock { $0 -= 1 }
        }
        defer {
            state.withLock { state in
                state.used -= amount
                if large { state.large -= 1 }
            }
            let waiting = waiters.withLock { $0 }
            for _ in 0..<waiting { changed.signal() }
        }
        return try body()
    }
}
