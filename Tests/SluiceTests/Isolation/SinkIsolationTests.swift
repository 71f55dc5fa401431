import Dispatch
import Testing
import Sluice

/// The program of issue 14: a sink made in a main-actor view model, fed from a detached task.
@MainActor
private final class ViewModel {
    var title = 0
    var bag = Set<AnyCancellable>()
    let log = IsolationLog<Int>()

    func bind(_ subject: PassthroughSubject<Int, Never>) {
        subject.sink { [log] in
            self.title = $0
            log.record($0, isolated: MainQueue.isCurrent)
        }.store(in: &bag)
    }
}

@Suite("sink and assign run their code on the actor that made them", .timeLimit(.minutes(12)))
struct SinkIsolationTests {
    @MainActor @Test("a sink made on the main actor, sent to from a detached task, runs on the main actor, in order")
    func mainActorSinkFromDetachedTask() async {
        let subject = PassthroughSubject<Int, Never>()
        let model = ViewModel()
        model.bind(subject)
        await Task.detached { for i in 1...100 { subject.send(i) } }.value
        await model.log.wait(for: 100)
        #expect(model.log.values == Array(1...100))
        #expect(model.log.allIsolated)
        #expect(model.title == 100)
        model.bag.removeAll()   // the sink's closure holds the model: end the cycle the program makes
    }

    @MainActor @Test("a value sent on the main actor reaches a main-actor sink before send returns, as in Combine")
    func mainActorSendIsSynchronous() {
        let subject = PassthroughSubject<Int, Never>()
        let model = ViewModel()
        model.bind(subject)
        subject.send(7)
        #expect(model.title == 7)
        subject.send(8)
        #expect(model.title == 8)
        #expect(model.log.allIsolated)
        model.bag.removeAll()
    }

    @MainActor @Test("values sent from many threads at once all reach a main-actor sink on the main actor, each sender's in order")
    func mainActorSinkFromManyThreads() async {
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let cancellable = subject.sink { log.record($0, isolated: MainQueue.isCurrent) }
        let senders = 4, perSender = 500
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask { for i in 0..<perSender { subject.send(sender * perSender + i) } }
            }
        }
        await log.wait(for: senders * perSender)
        #expect(log.allIsolated)
        let values = log.values
        for sender in 0..<senders {
            let mine = values.filter { $0 / perSender == sender }
            #expect(mine == Array(sender * perSender ..< (sender + 1) * perSender))
        }
        cancellable.cancel()
    }

    @MainActor @Test("a Producer delivers to a sink made on the main actor on the main actor, completion included")
    func producerToMainActorSink() async {
        let log = IsolationLog<Int>()
        let producer = Producer<Int, Never> { sender in
            for i in 0..<20 { guard await sender.send(i) else { return } }
        }
        let cancellable = producer.sink(
            receiveCompletion: { _ in log.record(-1, isolated: MainQueue.isCurrent) },
            receiveValue: { log.record($0, isolated: MainQueue.isCurrent) })
        await log.wait(for: 21)
        #expect(log.values == Array(0..<20) + [-1])
        #expect(log.allIsolated)
        cancellable.cancel()
    }

    @MainActor @Test("a Future fulfilled on another thread delivers to a main-actor sink on the main actor")
    func futureToMainActorSink() async {
        let log = IsolationLog<Int>()
        let future = Future<Int, Never> { promise in
            let promise = UncheckedBox(promise)
            DispatchQueue.global().async { promise.value(.success(42)) }
        }
        let cancellable = future.sink(
            receiveCompletion: { _ in log.record(-1, isolated: MainQueue.isCurrent) },
            receiveValue: { log.record($0, isolated: MainQueue.isCurrent) })
        await log.wait(for: 2)
        #expect(log.values == [42, -1])
        #expect(log.allIsolated)
        cancellable.cancel()
    }

    @Test("a sink made on a custom actor runs there, for a subject, a Producer and a Future")
    func customActorSinks() async {
        let actor = QueueActor()
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let cancellables = await actor.run { actor in
            [
                subject.sink { log.record($0, isolated: actor.isCurrent) },
                Producer<Int, Never> { sender in _ = await sender.send(100) }
                    .sink { log.record($0, isolated: actor.isCurrent) },
                Future<Int, Never> { promise in
                    let promise = UncheckedBox(promise)
                    DispatchQueue.global().async { promise.value(.success(200)) }
                }.sink { log.record($0, isolated: actor.isCurrent) },
            ]
        }
        await Task.detached { for i in 0..<10 { subject.send(i) } }.value
        await log.wait(for: 12)
        #expect(log.allIsolated)
        #expect(log.values.filter { $0 < 10 } == Array(0..<10))
        #expect(Set(log.values.filter { $0 >= 100 }) == [100, 200])
        for cancellable in cancellables { cancellable.cancel() }
    }

    @Test("a sink's hop lets its actor go after a budget of signals in a row: work queued there meanwhile runs before the rest, which follow in order")
    func hopBudgetLetsTheActorGo() async {
        let actor = QueueActor()
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let release = DispatchSemaphore(value: 0)
        let budget = DrainQueue<Void>.budget
        let count = 2 * budget
        let cancellable = await actor.run { actor in
            subject.sink { value in
                if value == 0 {
                    // Queued on the actor behind the drain that runs this closure.
                    Task { _ = actor; log.record(-1, isolated: actor.isCurrent) }
                    // Hold the drain until every value is queued behind this one.
                    _ = release.wait(timeout: .now() + 60)
                }
                log.record(value, isolated: actor.isCurrent)
            }
        }
        await Task.detached {
            for i in 0...count { subject.send(i) }
            release.signal()
        }.value
        await log.wait(for: count + 2)
        #expect(log.values.firstIndex(of: -1) == budget, "the marker did not run right after the budget")
        #expect(log.values.filter { $0 >= 0 } == Array(0...count))
        #expect(log.allIsolated)
        cancellable.cancel()
    }

    @Test("assign(to:on:isolation:) given a custom actor assigns there, in order, fed from another task")
    func customActorAssign() async {
        let actor = QueueActor()
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let target = ActorTarget(actor: actor, log: log)
        let cancellable = await actor.run { actor in
            subject.assign(to: \.value, on: target, isolation: actor)
        }
        await Task.detached { for i in 0..<20 { subject.send(i) } }.value
        await log.wait(for: 20)
        #expect(log.allIsolated)
        #expect(log.values == Array(0..<20))
        cancellable.cancel()
    }

    @Test("a sink made outside any actor runs on the sending thread, before send returns")
    func nonisolatedSinkRunsInline() async {
        let subject = PassthroughSubject<Int, Never>()
        let log = IsolationLog<Int>()
        let thread = Locked<UInt?>(nil)
        let cancellable = subject.sink { log.record($0, isolated: true) }
        await Task.detached {
            subject.send(1)
            #expect(log.values == [1])   // delivered before send returned, on this thread
            thread.withLock { $0 = 1 }
        }.value
        #expect(thread.withLock { $0 } == 1)
        cancellable.cancel()
    }

    @MainActor @Test("cancelled on the main actor, a main-actor sink runs nothing that was queued before the cancel")
    func cancelOnActorDropsQueued() async {
        let subject = PassthroughSubject<Probe, Never>()
        let log = IsolationLog<Int>()
        let allSent = DispatchSemaphore(value: 0)
        let lastReleased = Gate()
        var cancellable: AnyCancellable?
        cancellable = subject.sink { probe in
            let isolated = MainQueue.isCurrent
            // Hold the main actor until 2 and 3 are queued behind this value, then cancel.
            // (Off the main actor this would block the sender itself: record and go on.)
            if isolated { allSent.wait(for: "all three values to be sent") }
            log.record(probe.id, isolated: isolated)
            cancellable?.cancel()
        }
        await Task.detached {
            subject.send(Probe(1))
            subject.send(Probe(2))
            subject.send(Probe(3, released: lastReleased))
            allSent.signal()
        }.value
        // Probe 3 is freed once the drain has dropped it (or if it was never queued).
        await lastReleased.wait()
        #expect(log.values == [1])
        #expect(log.allIsolated)
    }
}

/// A value that opens a gate when the last reference to it goes.
final class Probe: Sendable {
    let id: Int
    let released: Gate?
    init(_ id: Int, released: Gate? = nil) { self.id = id; self.released = released }
    deinit { released?.open() }
}

/// A property owned by a custom actor: each assignment records whether it ran on that actor.
private final class ActorTarget: @unchecked Sendable {
    // Safe for this test: `value` is written only by the assign subscriber under test, whose
    // writes are what the log checks, and read by no one.
    let actor: QueueActor
    let log: IsolationLog<Int>
    var value = 0 { didSet { log.record(value, isolated: actor.isCurrent) } }
    init(actor: QueueActor, log: IsolationLog<Int>) {
        self.actor = actor
        self.log = log
    }
}
