import Sluice
import SluiceTesting
import Testing
import Dispatch

/// A signal that reached a sink's closures.
private enum Signal: Equatable, Sendable {
    case value(Int)
    case completion(Subscribers.Completion<TestError>)
}

/// The signals a sink's closures saw, in order, and how many of them ran off the actor.
private final class SignalLog: Sendable {
    private let state = Locked<(signals: [Signal], offActor: Int)>(([], 0))
    /// Opens when a completion is logged.
    let completed = Gate()

    func append(_ signal: Signal, onActor: Bool) {
        state.withLock { state in
            state.signals.append(signal)
            if !onActor { state.offActor += 1 }
        }
        if case .completion = signal { completed.open() }
    }

    var signals: [Signal] { state.withLock { $0.signals } }
    var values: [Int] { signals.compactMap { if case .value(let value) = $0 { value } else { nil } } }
    var offActor: Int { state.withLock { $0.offActor } }
}

/// Blocks the calling thread until opened: holds an actor busy inside a synchronous
/// `receiveValue`, where an async ``Gate`` cannot be awaited.
private final class ThreadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait(sourceLocation: SourceLocation = #_sourceLocation) {
        semaphore.wait(for: "the test to release the blocked actor", sourceLocation: sourceLocation)
    }
}

/// An actor on a ``QueueExecutor`` (its own serial dispatch queue: jobs run in the order they
/// are queued, and blocking it starves no cooperative thread) that hosts a buffering sink.
private actor Host {
    let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Attaches the buffering sink here; both closures log, noting whether they ran on this
    /// actor (and trap if not), then `receiveValue` runs `onValue`.
    func attach<P: Publisher & Sendable>(
        _ publisher: P, _ policy: ValuesBufferingPolicy, log: SignalLog,
        onValue: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> AnyCancellable where P.Output == Int, P.Failure == TestError {
        publisher.sink(isolation: self, bufferingPolicy: policy, receiveCompletion: { completion in
            self.assertIsolated("receiveCompletion ran off the actor")
            log.append(.completion(completion), onActor: self.executor.isCurrent)
        }, receiveValue: { value in
            self.assertIsolated("receiveValue ran off the actor")
            log.append(.value(value), onActor: self.executor.isCurrent)
            onValue(value)
        })
    }

    /// Returns once the jobs queued here before the call have run: called while the sink's
    /// loop is inside `receiveValue`, it returns after the loop went back to waiting.
    func drain() {}
}

/// Hosts a buffering sink and checks that its loop drains what is kept in one go: while
/// delivering the first value it queues another job on this actor; a loop that hopped (or
/// yielded) between values would let that job run before the remaining ones.
private actor DrainWatch {
    private var cancellable: AnyCancellable?
    private var otherJobRan = false
    private(set) var received: [Int] = []
    private(set) var valuesAfterTheOtherJob = 0
    let otherJobDone = Gate()
    let lastDelivered = Gate()

    func attach(_ subject: PassthroughSubject<Int, Never>, last: Int) {
        cancellable = subject.sink(isolation: self, bufferingPolicy: .unbounded) { value in
            self.received.append(value)
            if self.otherJobRan { self.valuesAfterTheOtherJob += 1 }
            if value == 1 {
                Task {
                    self.otherJobRan = true
                    self.otherJobDone.open()
                }
            }
            if value == last { self.lastDelivered.open() }
        }
    }

    /// Sent from this actor: the loop, also isolated here, cannot run until all are kept.
    func send(_ subject: PassthroughSubject<Int, Never>, _ values: ClosedRange<Int>) {
        for value in values { subject.send(value) }
    }

    func cancel() { cancellable?.cancel() }
}

/// Holds a subscriber back until ``release()``: lets a test cancel before the subscription.
private final class HeldBack<Output, Failure: Error>: Publisher {
    let upstream = ControllablePublisher<Output, Failure>()
    private var held: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        held = AnySubscriber(subscriber)
    }

    func release() {
        if let held { upstream.subscribe(held) }
        held = nil
    }
}

/// Passes subscribers on to a subject and keeps a weak reference to the last one.
private final class SubscriberSpy: Publisher {
    typealias Output = Int
    typealias Failure = TestError
    let subject = PassthroughSubject<Int, TestError>()
    weak var subscriber: AnyObject?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        self.subscriber = subscriber as AnyObject
        subject.subscribe(subscriber)
    }
}

/// Yields until `condition` holds or the test's time limit cancels the task; returns it.
@MainActor private func yieldUntil(_ condition: () -> Bool) async -> Bool {
    while !condition(), !Task.isCancelled { await Task.yield() }
    return condition()
}

/// A time limit on each test, so that a loop that never ends fails it instead of hanging the
/// run; the races are in ``IsolatedSinkBufferingRaceTests``, with more time.
@Suite(.timeLimit(.minutes(12)))
struct IsolatedSinkBufferingTests {
    // MARK: Demand

    @MainActor @Test func requestsUnlimitedExactlyOnceAndReturnsNoDemandPerValue() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let done = Gate()
        var received: [Int] = []
        let cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .bufferingNewest(8),
                                         receiveCompletion: { _ in done.open() },
                                         receiveValue: { received.append($0) })
        let subscription = publisher.subscriptions[0]
        #expect(subscription.history == [.request(.unlimited)])
        for value in 1...3 { #expect(subscription.send(value) == .none) }
        subscription.send(completion: .finished)
        await done.wait()
        #expect(received == [1, 2, 3])
        #expect(subscription.history == [.request(.unlimited)])
        cancellable.cancel()   // after the completion: nothing to cancel upstream
        #expect(subscription.history == [.request(.unlimited)])
    }

    // MARK: The policy

    @Test("Values sent while receiveValue is blocked on the actor are kept as the policy says; the completion follows them",
          arguments: [
              (ValuesBufferingPolicy.unbounded, Array(1...20)),
              (.bufferingOldest(3), [1, 2, 3, 4]),
              (.bufferingNewest(3), [1, 18, 19, 20]),
              (.bufferingOldest(0), [1]),
              (.bufferingNewest(0), [1]),
          ])
    func keepsWhatThePolicySaysWhileTheActorIsBusy(policy: ValuesBufferingPolicy, expected: [Int]) async {
        let host = Host()
        let subject = PassthroughSubject<Int, TestError>()
        let log = SignalLog()
        let primed = Gate()
        let busy = Gate()
        let release = ThreadGate()
        let cancellable = await host.attach(subject, policy, log: log) { value in
            if value == 0 { primed.open() }
            if value == 1 {
                busy.open()
                release.wait()
            }
        }
        subject.send(0)
        await primed.wait()
        await host.drain()   // the loop waits: 1 is handed to it, outside the policy
        subject.send(1)
        await busy.wait()
        for value in 2...20 { subject.send(value) }   // from this thread, while the actor is blocked
        subject.send(completion: .failure(TestError(code: 7)))
        release.open()
        await log.completed.wait()
        #expect(log.signals == ([0] + expected).map(Signal.value) + [.completion(.failure(TestError(code: 7)))])
        #expect(log.offActor == 0)
        cancellable.cancel()
    }

    @Test func theLoopDrainsKeptValuesWithoutAHopPerValue() async {
        let watch = DrainWatch()
        let subject = PassthroughSubject<Int, Never>()
        await watch.attach(subject, last: 100)
        await watch.send(subject, 1...100)
        await watch.otherJobDone.wait()
        await watch.lastDelivered.wait()
        #expect(await watch.received == Array(1...100))
        #expect(await watch.valuesAfterTheOtherJob == 0, "the loop gave the actor up between kept values")
        await watch.cancel()
    }

    @MainActor @Test func closuresRunOnTheMainActorAndTheCompletionComesAfterTheKeptValues() async {
        let subject = PassthroughSubject<Int, TestError>()
        let done = Gate()
        let primed = Gate()
        var signals: [Signal] = []
        let cancellable = subject.sink(isolation: MainActor.shared, bufferingPolicy: .bufferingNewest(2),
                                       receiveCompletion: {
                                           MainActor.assertIsolated("receiveCompletion ran off the main actor")
                                           signals.append(.completion($0))
                                           done.open()
                                       },
                                       receiveValue: {
                                           MainActor.assertIsolated("receiveValue ran off the main actor")
                                           signals.append(.value($0))
                                           if $0 == 0 { primed.open() }
                                       })
        subject.send(0)
        await primed.wait()   // resumed on the main actor after the loop went back to waiting
        // Sent on the main actor: the loop cannot run until this test suspends.
        for value in 1...5 { subject.send(value) }
        subject.send(completion: .finished)
        await done.wait()
        // 1 found the loop waiting; of 2...5 the newest two were kept.
        #expect(signals == [.value(0), .value(1), .value(4), .value(5), .completion(.finished)])
        cancellable.cancel()
    }

    // MARK: Cancel

    @MainActor @Test func cancelBeforeTheSubscriptionCancelsItOnArrivalWithoutARequest() async {
        let publisher = HeldBack<Int, Never>()
        let released = Gate()
        weak var weakProbe: DeinitProbe?
        var received: [Int] = []
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            weakProbe = probe
            cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded) { value in
                _ = probe
                received.append(value)
            }
        }
        cancellable.cancel()
        publisher.release()
        let subscription = publisher.upstream.subscriptions[0]
        #expect(subscription.history == [.cancel])
        subscription.send(1)
        await released.wait()
        #expect(weakProbe == nil)
        #expect(received.isEmpty)
    }

    @MainActor @Test func cancelWhileTheLoopWaitsCancelsUpstreamOnceAndReleasesTheClosures() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let released = Gate()
        let primed = Gate()
        weak var weakProbe: DeinitProbe?
        var signals: [Signal] = []
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            weakProbe = probe
            cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded,
                                         receiveCompletion: { _ = probe; signals.append(.completion($0)) },
                                         receiveValue: { _ = probe; signals.append(.value($0)); primed.open() })
        }
        let subscription = publisher.subscriptions[0]
        subscription.send(0)
        await primed.wait()   // resumed on the main actor after the loop went back to waiting
        #expect(weakProbe != nil, "released before the cancel")
        cancellable.cancel()
        cancellable.cancel()
        #expect(subscription.history == [.request(.unlimited), .cancel])
        subscription.send(1)
        subscription.send(completion: .finished)
        await released.wait()
        #expect(weakProbe == nil)
        #expect(signals == [.value(0)])
    }

    @MainActor @Test func droppingTheCancellableCancelsUpstream() async {
        let publisher = ControllablePublisher<Int, Never>()
        let released = Gate()
        var received: [Int] = []
        do {
            let probe = DeinitProbe(released)
            _ = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded) { value in
                _ = probe
                received.append(value)
            }
        }
        let subscription = publisher.subscriptions[0]
        #expect(subscription.history == [.request(.unlimited), .cancel])
        subscription.send(1)
        await released.wait()
        #expect(released.isOpen)
        #expect(received.isEmpty)
    }

    @MainActor @Test func cancelFromInsideReceiveValueDeliversNothingMoreOfWhatIsKept() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let released = Gate()
        var signals: [Signal] = []
        var cancellable: AnyCancellable?
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded,
                                         receiveCompletion: { _ = probe; signals.append(.completion($0)) },
                                         receiveValue: { value in
                                             _ = probe
                                             signals.append(.value(value))
                                             if value == 3 { cancellable?.cancel() }
                                         })
        }
        let subscription = publisher.subscriptions[0]
        // All kept before the loop runs: the cancel comes in the middle of draining them.
        for value in 1...10 { subscription.send(value) }
        await released.wait()
        #expect(released.isOpen, "the loop did not end")
        #expect(signals == [.value(1), .value(2), .value(3)])
        #expect(subscription.history == [.request(.unlimited), .cancel])
    }

    @MainActor @Test func cancelAfterTheUpstreamCompletedDropsTheKeptValuesAndTheCompletion() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let released = Gate()
        var signals: [Signal] = []
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded,
                                         receiveCompletion: { _ = probe; signals.append(.completion($0)) },
                                         receiveValue: { _ = probe; signals.append(.value($0)) })
        }
        let subscription = publisher.subscriptions[0]
        subscription.send(1)
        subscription.send(2)
        subscription.send(completion: .finished)
        cancellable.cancel()   // on the actor, before the loop ran
        await released.wait()
        #expect(released.isOpen, "the loop did not end")
        #expect(signals.isEmpty)
        #expect(subscription.history == [.request(.unlimited)], "the upstream had completed: no cancel")
    }

    @MainActor @Test func cancelOnTheActorAfterAValueWokeTheLoopDeliversNothingMore() async {
        let publisher = ControllablePublisher<Int, Never>()
        let primed = Gate()
        let released = Gate()
        var received: [Int] = []
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded) { value in
                _ = probe
                received.append(value)
                primed.open()
            }
        }
        let subscription = publisher.subscriptions[0]
        subscription.send(0)
        await primed.wait()   // resumed on the main actor after the loop went back to waiting
        subscription.send(1)  // handed to the waiting loop, which cannot run before this test suspends
        cancellable.cancel()
        await released.wait()
        #expect(released.isOpen, "the loop did not end")
        #expect(received == [0])
        #expect(subscription.history == [.request(.unlimited), .cancel])
    }

    // MARK: Release

    @MainActor @Test func closuresAndSubscriberAreReleasedAfterCancel() async {
        let spy = SubscriberSpy()
        let released = Gate()
        weak var weakProbe: DeinitProbe?
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            weakProbe = probe
            cancellable = spy.sink(isolation: MainActor.shared, bufferingPolicy: .unbounded,
                                   receiveCompletion: { _ in _ = probe },
                                   receiveValue: { _ in _ = probe })
        }
        spy.subject.send(1)   // kept: the loop has not run yet
        #expect(weakProbe != nil && spy.subscriber != nil, "released before the cancel")
        cancellable.cancel()
        await released.wait()
        #expect(weakProbe == nil)
        #expect(await yieldUntil { spy.subscriber == nil }, "the subscriber outlived the cancel")
        withExtendedLifetime(cancellable) {}
    }

    @MainActor @Test func closuresAndSubscriberAreReleasedAfterTheCompletion() async {
        let spy = SubscriberSpy()
        let released = Gate()
        weak var weakProbe: DeinitProbe?
        var completed = false
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            weakProbe = probe
            cancellable = spy.sink(isolation: MainActor.shared, bufferingPolicy: .bufferingNewest(4),
                                   receiveCompletion: { _ in _ = probe; completed = true },
                                   receiveValue: { _ in _ = probe })
        }
        spy.subject.send(1)
        spy.subject.send(completion: .finished)
        await released.wait()
        #expect(completed)
        #expect(weakProbe == nil)
        // The cancellable is still held: it must not keep the subscriber alive.
        #expect(await yieldUntil { spy.subscriber == nil }, "the subscriber outlived the completion")
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Misuse

    @Test(.exitTest) func aNegativeLimitTrapsNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).sink(isolation: nil, bufferingPolicy: .bufferingNewest(-1)) { _ in }
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("a sink(isolation:bufferingPolicy:) limit must not be negative (rule 2), got -1"))
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).sink(isolation: nil, bufferingPolicy: .bufferingOldest(-2)) { _ in }
        }
    }
}

/// The cancel races: many runs each, so slow under Thread Sanitizer; the time limit only
/// stops a run that hangs.
@Suite(.timeLimit(.minutes(12)))
struct IsolatedSinkBufferingRaceTests {
    @Test("Cancel on the actor racing sends from another thread: no value reaches receiveValue after cancel returns (10,000 runs, fewer under a sanitizer)")
    func cancelOnTheActorRacingSendsFromAnotherThread() async {
        let race = CancelRace()
        for iteration in 0..<StressBudget.scaled(10_000) where !Task.isCancelled {
            let n = iteration % 8
            await race.run(cancel: n < 5 ? .afterSent(n) : .afterYields(n - 4))
        }
        let outcome = await race.outcome
        #expect(outcome.valuesAfterCancel == 0)
        #expect(outcome.runsNotReleased == 0, "the cancel did not end the loop")
        #expect(outcome.runsWithValues > 0, "no run delivered anything before its cancel: the yields never let the loop run")
    }

    @Test("Cancel from another thread while values are kept: at most the value being taken still arrives (2,000 runs, fewer under a sanitizer)")
    func cancelFromAnotherThreadDropsWhatIsKept() async {
        var runsCutShort = 0
        for _ in 0..<StressBudget.scaled(2_000) where !Task.isCancelled {
            let host = Host()
            let subject = PassthroughSubject<Int, TestError>()
            let log = SignalLog()
            let cancelled = Locked(false)
            let late = Locked(0)
            let released = Gate()
            let cancellable: AnyCancellable
            do {
                let probe = DeinitProbe(released)
                cancellable = await host.attach(subject, .unbounded, log: log) { _ in
                    _ = probe
                    if cancelled.withLock({ $0 }) { late.withLock { $0 += 1 } }
                }
            }
            for value in 1...200 { subject.send(value) }   // the loop drains them meanwhile
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    cancellable.cancel()
                    cancelled.withLock { $0 = true }
                    done.resume()
                }
            }
            subject.send(completion: .finished)
            await released.wait()
            #expect(released.isOpen, "the cancel did not end the loop")
            #expect(late.withLock { $0 } <= 1)
            #expect(!log.signals.contains(.completion(.finished)), "the completion, sent after the cancel, arrived")
            if log.values.count < 200 { runsCutShort += 1 }
        }
        #expect(runsCutShort > 0, "every cancel came after the last value: the race never ran")
    }
}

/// The cancel race: a sink on this actor, a subject sending four values from a dispatch
/// thread, and a cancel on this actor. Each run places the cancel differently: holding the
/// actor until `n` values were sent (so a value already handed to the loop is waiting for it),
/// or after `n` yields (so the loop may deliver some first). On a ``QueueExecutor``, so that
/// holding the actor blocks a thread of its own, not one of the cooperative pool.
private actor CancelRace {
    let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    enum CancelPoint {
        case afterSent(Int)
        case afterYields(Int)
    }

    private var cancelReturned = false
    private var delivered = 0
    private var valuesAfterCancel = 0
    private var runsWithValues = 0
    private var runsNotReleased = 0

    var outcome: (valuesAfterCancel: Int, runsWithValues: Int, runsNotReleased: Int) {
        (valuesAfterCancel, runsWithValues, runsNotReleased)
    }

    func run(cancel point: CancelPoint) async {
        let subject = PassthroughSubject<Int, Never>()
        let released = Gate()
        let primed = Gate()
        let sentAll = Gate()
        let sentEnough = ThreadGate()
        let threshold = if case .afterSent(let count) = point { count } else { 0 }
        delivered = 0
        cancelReturned = false
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = subject.sink(isolation: self, bufferingPolicy: .unbounded) { value in
                _ = probe
                if value == 0 { return primed.open() }
                if self.cancelReturned { self.valuesAfterCancel += 1 }
                self.delivered += 1
            }
        }
        subject.send(0)
        await primed.wait()   // back on the actor after the loop went back to waiting
        DispatchQueue.global().async {
            for value in 1...4 {
                subject.send(value)
                if value == threshold { sentEnough.open() }
            }
            sentAll.open()
        }
        switch point {
        case .afterSent(let count):
            if count > 0 { sentEnough.wait() }   // holds the actor: the loop cannot run
        case .afterYields(let count):
            for _ in 0..<count { await Task.yield() }
        }
        cancellable.cancel()
        cancelReturned = true
        await sentAll.wait()
        await released.wait()   // the loop has ended: any late value was counted
        if !released.isOpen { runsNotReleased += 1 }
        if delivered > 0 { runsWithValues += 1 }
    }
}
