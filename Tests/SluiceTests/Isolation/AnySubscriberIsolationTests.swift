import Testing
import Sluice

@Suite("AnySubscriber's closures run on the actor that made them", .timeLimit(.minutes(12)))
struct AnySubscriberIsolationTests {
    @MainActor @Test("made on the main actor and sent to from a detached task: the subscription, every value and the completion run on the main actor, in order")
    func mainActorClosuresFromDetachedTask() async {
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let subscribedOnMain = Locked<Bool?>(nil)
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { subscribedOnMain.withLock { $0 = MainQueue.isCurrent }; $0.request(.unlimited) },
            receiveValue: { log.record($0, isolated: MainQueue.isCurrent); return .none },
            receiveCompletion: { _ in log.record(-1, isolated: MainQueue.isCurrent) }))
        #expect(subscribedOnMain.withLock { $0 } == true, "subscribed on the main actor: at once, no hop")
        await Task.detached { for i in 1...100 { subject.send(i) }; subject.send(completion: .finished) }.value
        await log.wait(for: 101)
        #expect(log.values == Array(1...100) + [-1])
        #expect(log.allIsolated)
    }

    @MainActor @Test("made on the main actor, fed by a Producer on its own task one value at a time: the demand each value returns is requested from the actor, and nothing is lost")
    func returnedDemandCrossesTheHop() async {
        let log = IsolationLog<Int>()
        let producer = Producer<Int, Never> { sender in
            for i in 1...100 { guard await sender.send(i) else { return } }
        }
        producer.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { log.record($0, isolated: MainQueue.isCurrent); return .max(1) },
            receiveCompletion: { _ in log.record(-1, isolated: MainQueue.isCurrent) }))
        await log.wait(for: 101)
        #expect(log.values == Array(1...100) + [-1])
        #expect(log.allIsolated)
    }

    @MainActor @Test("made on the main actor and sent to there: each value runs before send returns, as in Combine")
    func mainActorSendIsSynchronous() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in received.withLock { $0.append(value) }; return .max(1) }))
        subject.send(1)
        #expect(received.withLock { $0 } == [1])
        subject.send(2)
        #expect(received.withLock { $0 } == [1, 2], "the demand returned for 1 was requested")
        subject.send(completion: .finished)   // ends the subscription, which holds the subscriber
    }

    @Test("made on a custom actor: every signal runs on that actor")
    func customActorClosures() async {
        let actor = QueueActor()
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let subscribed = Gate()
        await actor.subscribe(subject, log: log, subscribed: subscribed)
        _ = await subscribed.wait(for: "the subscription to reach the actor")
        for i in 1...50 { subject.send(i) }
        subject.send(completion: .finished)
        await log.wait(for: 51)
        #expect(log.values == Array(1...50) + [-1])
        #expect(log.allIsolated)
    }

    @Test("made outside any actor: the closures run on the sending thread, before send returns")
    func nonisolatedClosuresRunInline() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in received.withLock { $0.append(value) }; return .none }))
        subject.send(3)
        #expect(received.withLock { $0 } == [3])
        subject.send(completion: .finished)
    }
}

extension QueueActor {
    /// Subscribes closures made here, which log whether they run on this actor; `subscribed`
    /// opens once the subscription has reached them there.
    func subscribe(_ subject: PassthroughSubject<Int, Never>, log: IsolationLog<Int>, subscribed: Gate) {
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { [self] in
                $0.request(.unlimited)
                if isCurrent { subscribed.open() }
            },
            receiveValue: { [self] in log.record($0, isolated: isCurrent); return .none },
            receiveCompletion: { [self] _ in log.record(-1, isolated: isCurrent) }))
    }
}

@Suite("AnyCancellable's closure runs on the actor that made it", .timeLimit(.minutes(12)))
struct AnyCancellableIsolationTests {
    @MainActor @Test("made on the main actor and cancelled from a detached task: the closure runs on the main actor")
    func mainActorClosureCancelledElsewhere() async {
        let log = IsolationLog<Int>()
        let cancellable = AnyCancellable { log.record(1, isolated: MainQueue.isCurrent) }
        await Task.detached { cancellable.cancel() }.value
        await log.wait(for: 1)
        #expect(log.allIsolated)
    }

    @MainActor @Test("made and cancelled on the main actor: the closure has run when cancel returns, as in Combine")
    func mainActorCancelIsSynchronous() {
        let ran = Locked(false)
        let cancellable = AnyCancellable { ran.withLock { $0 = true } }
        cancellable.cancel()
        #expect(ran.withLock { $0 })
    }

    @Test("made on a custom actor: the closure runs on that actor")
    func customActorClosure() async {
        let actor = QueueActor()
        let log = IsolationLog<Int>()
        let cancellable = await actor.makeCancellable(log: log)
        cancellable.cancel()
        await log.wait(for: 1)
        #expect(log.allIsolated)
    }

    @Test("made outside any actor: the closure runs on the cancelling thread, before cancel returns")
    func nonisolatedClosureRunsInline() {
        let ran = Locked(false)
        AnyCancellable { ran.withLock { $0 = true } }.cancel()
        #expect(ran.withLock { $0 })
    }
}

extension QueueActor {
    /// A cancellable whose closure, made here, logs whether it runs on this actor.
    func makeCancellable(log: IsolationLog<Int>) -> AnyCancellable {
        AnyCancellable { [self] in log.record(1, isolated: isCurrent) }
    }
}
