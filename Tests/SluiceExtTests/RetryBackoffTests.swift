import Sluice
import SluiceExt
import SluiceTesting
import Testing

/// A publisher that counts its subscriptions and, for each, sends `values` then fails.
final class Flaky: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Oops

    private let count = Locked(0)
    private let values: [Int]

    init(values: [Int] = []) { self.values = values }

    var subscriptionCount: Int { count.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Oops {
        count.withLock { $0 += 1 }
        Record(output: values, completion: .failure(Oops())).receive(subscriber: subscriber)
    }
}

@Suite("retry with back-off (Sluice's) and CombineExt's retry(_:scheduler:shouldRetry:)")
struct RetryBackoffTests {
    @Test("the delay grows by the multiplier, stops at the cap, and jitter takes off up to its fraction",
          arguments: [(1, 0.0, Duration.seconds(1)), (2, 0, .seconds(3)), (3, 0, .seconds(9)), (4, 0, .seconds(20)),
                      (60, 0, .seconds(20)), (2, 1, .milliseconds(1_500)), (2, 0.5, .milliseconds(2_250))])
    func delays(failures: Int, random: Double, expected: Duration) {
        let backoff = RetryBackoff.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(20), jitter: 0.5)
        #expect(backoff.delay(after: failures, random: random) == expected)
    }

    @Test("without a cap, a long run of failures saturates instead of overflowing")
    func saturates() {
        let backoff = RetryBackoff.exponential(initial: .seconds(1))
        #expect(backoff.delay(after: 10_000, random: 0) == .seconds(1e9))
        #expect(RetryBackoff.immediate.delay(after: 5, random: 1) == .zero)
        #expect(RetryBackoff.constant(.seconds(2)).delay(after: 5, random: 1) == .seconds(2))
    }

    @Test("a retry waits no less than the jittered delay and no more than the full one")
    func jitterWindow() {
        let flaky = Flaky()
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retry(1, backoff: .exponential(initial: .seconds(4), jitter: 0.5), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(2) - .nanoseconds(1))
        #expect(flaky.subscriptionCount == 1)
        scheduler.advance(by: .seconds(2) + .nanoseconds(1))
        #expect(flaky.subscriptionCount == 2)
        #expect(recorder.completion == .failure(Oops()))
    }

    @Test("a failure the predicate refuses fails the stream at once")
    func predicate() {
        let flaky = Flaky()
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retry(5, backoff: .immediate, scheduler: scheduler, if: { _ in false }).subscribe(recorder)
        scheduler.advance(by: .seconds(10))
        #expect(flaky.subscriptionCount == 1)
        #expect(recorder.completion == .failure(Oops()))
    }

    @Test("every attempt's values reach the downstream, within the demand it carries over")
    func valuesAndDemand() {
        let flaky = Flaky(values: [7, 8])
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(3))
        flaky.retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [7, 8, 7])
        #expect(recorder.completion == nil)   // the second attempt waits for demand
        recorder.cancel()
    }

    @Test("a cancel during a wait cancels the timer: no attempt follows")
    func cancelDuringWait() {
        let flaky = Flaky()
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler).subscribe(recorder)
        recorder.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(flaky.subscriptionCount == 1)
        #expect(recorder.completion == nil)
    }

    @Test("CombineExt's RepeatBehavior: maxCount attempts in all, exponential delays of initial × (1 + multiplier)^(n − 1)")
    func repeatBehavior() {
        let flaky = Flaky()
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retry(.exponentialDelayed(maxCount: 3, initial: 1, multiplier: 0.5), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(flaky.subscriptionCount == 2)
        scheduler.advance(by: .milliseconds(1_499))
        #expect(flaky.subscriptionCount == 2)
        scheduler.advance(by: .milliseconds(1))
        #expect(flaky.subscriptionCount == 3)
        #expect(recorder.completion == .failure(Oops()))
    }

    @Test("CombineExt's immediate behaviour retries at once; its shouldRetry can refuse")
    func repeatImmediate() {
        let scheduler = VirtualTimeScheduler()
        let immediate = Flaky(), refused = Flaky()
        let first = RecordingSubscriber<Int, Oops>(), second = RecordingSubscriber<Int, Oops>()
        immediate.retry(.immediate(maxCount: 4), scheduler: scheduler).subscribe(first)
        refused.retry(.delayed(maxCount: 4, time: 1), scheduler: scheduler, shouldRetry: { !($0 is Oops) }).subscribe(second)
        #expect(immediate.subscriptionCount == 4)
        #expect(first.completion == .failure(Oops()))
        #expect(refused.subscriptionCount == 1)
        #expect(second.completion == .failure(Oops()))
    }

    @Test("a jitter outside 0...1 traps", .exitTest)
    func misuse() async {
        await #expect(processExitsWith: .failure) {
            _ = RetryBackoff.exponential(initial: .seconds(1), jitter: 1.5)
        }
    }
}
