import Foundation
import Synchronization
import XCTest
@testable import Run

/// `ParallelMap`: every item once, results in the items' order, never more than `workers` at a time.
final class ParallelMapTests: XCTestCase {
    func testResultsKeepTheItemsOrderAndAtMostWorkersRunAtOnce() {
        let running = Mutex((now: 0, most: 0, calls: 0))
        let items = Array(0..<40)
        let squares = ParallelMap.map(items, workers: 2) { item -> Int in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.calls += 1 }
            Thread.sleep(forTimeInterval: item % 3 == 0 ? 0.004 : 0.001)  // uneven items: threads take turns out of order
            running.withLock { $0.now -= 1 }
            return item * item
        }
        XCTAssertEqual(squares, items.map { $0 * $0 })
        let counts = running.withLock { $0 }
        XCTAssertEqual(counts.calls, 40, "each item once")
        XCTAssertLessThanOrEqual(counts.most, 2, "never more than two at a time")
        XCTAssertEqual(ParallelMap.map([Int](), workers: 2) { $0 }, [])
        XCTAssertEqual(ParallelMap.map([7], workers: 4) { $0 + 1 }, [8])
    }
}
