import Sluice
import SluiceTesting
import Testing

/// DESIGN rule 5 and Reactive Streams 3.2/3.3: `request(_:)` and `cancel()` may be called from
/// inside `receive(_:)`, and recursion stays bounded for any number of elements. A value
/// delivered from inside the `request` made within `receive` would overlap that `receive`:
/// the recorder records it as a violation. The package's locks are not re-entrant, so a
/// publisher that called out while holding its lock (rule 6) deadlocks here when the subscriber
/// calls back in: the time limit reports it.
@Suite("Rule 5: re-entrancy and bounded recursion", .timeLimit(.minutes(12)))
struct ReentrancyRules {
    @Test("A request from inside receive(_:) delivers the next value after it returns (rule 3.2)",
          arguments: Registry.completing(withAtLeast: 1))
    func reentrantRequest(entry: Entry) async {
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        recorder.onValue { [weak recorder] _ in
            recorder?.request(.max(1))
            return .none
        }
        source.request(.max(1), through: recorder)
        #expect(await entry.awaitCompletion(of: recorder) == entry.expectedCompletion)
        #expect(recorder.values == entry.expectedValues)
        #expect(recorder.violations.isEmpty)
    }

    @Test("A cancel from inside receive(_:) stops delivery at once (rules 3.2, 3.12)",
          arguments: Registry.all.filter { $0.elements >= 2 })
    func reentrantCancel(entry: Entry) async {
        // An asynchronous entry's task is inside receive(_:) when the cancel comes, so even
        // with unlimited demand in hand it must look at the cancel before its next value;
        // settle waits until its task is over, so a value it sends after all is seen.
        let (source, recorder) = entry.subscribe(initialDemand: .none)
        recorder.onValue { [weak recorder] _ in
            recorder?.cancel()
            return .none
        }
        source.request(.unlimited, through: recorder)
        await entry.awaitValues(1, of: recorder)
        #expect(await source.settle(recorder), "\(entry.name) never let go of its subscriber")
        #expect(recorder.values == entry.expectedPrefix(1))
        #expect(recorder.completion == nil)
        #expect(recorder.violations.isEmpty)
    }
}

/// Reactive Streams 3.3 at scale: each case runs a million values synchronously, so the cases
/// run one at a time and off the cooperative pool (they would starve the asynchronous rules).
@Suite("Rule 5: bounded recursion over a million values", .serialized, .timeLimit(.minutes(12)))
struct BoundedRecursionRules {
    @Test("1,000,000 synchronous values with re-entrant .max(1) requests do not overflow the stack (rule 3.3)",
          arguments: Registry.scalable)
    func millionReentrantRequests(entry: Entry) async throws {
        let count = 1_000_000
        let scaled = try #require(entry.scaled)
        let source = scaled(count)
        let counter = ReentrantCounter()
        let subject = source.subject
        #expect((subject != nil) == (entry.delivery == .hot))
        let work = Unchecked((source.publisher, subject))
        await offTheCooperativePool {
            work.value.0.subscribe(counter)
            counter.start()
            // A subject delivers as it is sent to: send every value, then the ending.
            guard let subject = work.value.1 else { return }
            let first = counter.count.load(ordering: .relaxed)  // a CurrentValueSubject's value
            for value in first..<count { subject.send(value) }
            subject.send(completion: entry.expectedCompletion ?? .finished)
        }
        #expect(counter.count.load(ordering: .relaxed) == count)
        #expect(counter.completion == entry.expectedCompletion)
        #expect(counter.maxDepth.load(ordering: .relaxed) == 1, "a value was delivered from inside receive(_:)")
        #expect(counter.valuesBeyondDemand.load(ordering: .relaxed) == 0)
    }
}
