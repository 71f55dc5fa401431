import Foundation
import Sluice
import SluiceTesting
import Testing

// The examples of CustomPublishers.md, compiled and run; `.ci/check-snippets.sh` checks that
// the article shows exactly the lines between each snippet's markers.

// snippet CustomMetronome begin
/// Publishes the tick count (1, 2, 3, …) every `interval` on `scheduler`. A tick that finds
/// no demand is dropped (its number is skipped); cancelling stops the timer.
struct Metronome<S: Scheduler>: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let interval: S.SchedulerTimeType.Stride
    let scheduler: S

    func receive<D: Subscriber>(subscriber: D) where D.Input == Int, D.Failure == Never {
        let subscription = MetronomeSubscription(downstream: subscriber)
        subscriber.receive(subscription: subscription)
        subscription.start(on: scheduler, every: interval)
    }
}
// snippet CustomMetronome end

// snippet CustomMetronomeSubscription begin
final class MetronomeSubscription: Subscription, @unchecked Sendable {
    // Unchecked Sendable: the scheduler's actions are `@Sendable`, and every `var` below is
    // read and written only while `lock` is held.
    private let lock = NSLock()
    private var downstream: AnySubscriber<Int, Never>?   // nil once cancelled
    private var demand = Subscribers.Demand.none
    private var ticks = 0
    private var timer: (any Cancellable)?

    init<D: Subscriber>(downstream: D) where D.Input == Int, D.Failure == Never {
        self.downstream = AnySubscriber(downstream)
    }

    func start<S: Scheduler>(on scheduler: S, every interval: S.SchedulerTimeType.Stride) {
        let cancelled = lock.withLock { downstream == nil }
        if cancelled { return }   // cancelled inside receive(subscription:)
        // Weak: the timer alone does not keep the subscription alive.
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval
        ) { [weak self] in self?.tick() }
        let keep = lock.withLock {
            if downstream == nil { return false }
            self.timer = timer
            return true
        }
        if !keep { timer.cancel() }   // a cancel came while the timer was being made
    }

    private func tick() {
        // Decide under the lock, call the subscriber after it (rule 6).
        let delivery = lock.withLock { () -> (AnySubscriber<Int, Never>, Int)? in
            ticks += 1
            guard let downstream, demand > 0 else { return nil }   // no demand: dropped
            demand -= 1
            return (downstream, ticks)
        }
        guard let (downstream, tick) = delivery else { return }
        let more = downstream.receive(tick)
        lock.withLock { demand += more }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { self.demand += demand }
    }

    func cancel() {
        let timer = lock.withLock { () -> (any Cancellable)? in
            defer { downstream = nil; self.timer = nil }
            return self.timer
        }
        timer?.cancel()
    }
}
// snippet CustomMetronomeSubscription end

// snippet CustomTickLog begin
final class TickLog: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private(set) var ticks: [Int] = []
    private var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription   // kept, to ask for more and to cancel
        subscription.request(.max(3))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        ticks.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        subscription = nil
    }

    func askForMore(_ count: Int) {
        subscription?.request(.max(count))
    }

    func stop() {
        subscription?.cancel()
        subscription = nil
    }
}
// snippet CustomTickLog end

@Suite(.timeLimit(.minutes(12))) struct CustomPublishersSnippets {
    @Test func metronomeHonoursDemand() {
        // snippet CustomMetronomeRun begin
        let scheduler = VirtualTimeScheduler()
        let log = TickLog()
        Metronome(interval: .seconds(1), scheduler: scheduler).subscribe(log)
        scheduler.advance(by: .seconds(5))
        // log.ticks == [1, 2, 3]: ticks 4 and 5 found no demand and were dropped
        #expect(log.ticks == [1, 2, 3])
        log.askForMore(2)
        scheduler.advance(by: .seconds(3))
        // log.ticks == [1, 2, 3, 6, 7]
        #expect(log.ticks == [1, 2, 3, 6, 7])
        log.stop()
        scheduler.advance(by: .seconds(3))
        // log.ticks == [1, 2, 3, 6, 7], and the scheduler holds no timer
        // snippet CustomMetronomeRun end
        #expect(log.ticks == [1, 2, 3, 6, 7])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func subscriptionIsReleasedAfterCancel() {
        let scheduler = VirtualTimeScheduler()
        weak var weakSubscription: MetronomeSubscription?
        weak var weakLog: TickLog?
        do {
            let log = TickLog()
            weakLog = log
            let subscription = MetronomeSubscription(downstream: log)
            weakSubscription = subscription
            log.receive(subscription: subscription)
            subscription.start(on: scheduler, every: .seconds(1))
            scheduler.advance(by: .seconds(1))
            #expect(log.ticks == [1])
            log.stop()
        }
        #expect(weakSubscription == nil)
        #expect(weakLog == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancelStopsTheTimerEvenWhileTheSubscriptionIsKept() {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
        let subscription = MetronomeSubscription(downstream: recorder)
        recorder.receive(subscription: subscription)
        subscription.start(on: scheduler, every: .seconds(1))
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2])
        subscription.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2])
        withExtendedLifetime(subscription) {}
    }

    @Test func cancelInsideReceiveSubscriptionStartsNoTimer() {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
        recorder.onValue { _ in .none }
        let subscription = MetronomeSubscription(downstream: recorder)
        subscription.cancel()
        subscription.start(on: scheduler, every: .seconds(1))
        scheduler.advance(by: .seconds(3))
        #expect(recorder.values.isEmpty)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func unlimitedDemandTakesEveryTick() {
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
        Metronome(interval: .seconds(1), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(4))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2, 3, 4])
    }
}
