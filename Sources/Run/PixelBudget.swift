import Synchronization
import Dispatch

/// Bounds the decoded pixels in flight across workers, so a folder of 50 MP photos cannot exhaust memory.
///
/// A worker reserves a photo's pixel count before a rendering that holds the whole image in memory, and releases
/// it after. A reservation larger than the whole budget waits until nothing else is reserved, then runs alone.
/// The run's `WorkQueue` applies the same rule to new files before their chains start, from their frame headers, so
/// that a worker takes another photo instead of waiting here with its photo's bytes in memory.
package final class PixelBudget: Sendable {
    /// The budget, in pixels.
    package let capacity: Int
    private let state = Mutex(0)
    private let changed = DispatchSemaphore(value: 0)
    private let waiters = Mutex(0)

    package init(megapixels: Int) { capacity = max(1, megapixels) * 1_000_000 }

    /// The budget's one rule, also `WorkQueue`'s: `amount` fits beside `used` when nothing else is in, or when the
    /// total stays within `capacity` (an amount larger than the budget counts as the whole budget).
    static func fits(_ amount: Int, beside used: Int, capacity: Int) -> Bool {
        used == 0 || used + min(amount, capacity) <= capacity
    }

    /// Runs `body` with `pixels` reserved.
    func withReservation<T>(_ pixels: Int, _ body: () throws -> T) rethrows -> T {
        let amount = min(max(pixels, 0), capacity)
        while !state.withLock({ used in
            guard PixelBudget.fits(amount, beside: used, capacity: capacity) else { return false }
            used += amount
            return true
        }) {
            waiters.withLock { $0 += 1 }
            _ = changed.wait(timeout: .now() + .milliseconds(50))
            waiters.withLock { $0 -= 1 }
        }
        defer {
            state.withLock { $0 -= amount }
            let waiting = waiters.withLock { $0 }
            for _ in 0..<waiting { changed.signal() }
        }
        return try body()
    }
}
