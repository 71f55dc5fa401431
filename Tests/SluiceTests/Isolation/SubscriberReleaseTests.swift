import Dispatch
import Testing
import Sluice
import SluiceTesting

/// Something a closure captures, to see when the closure is released.
private final class Captured: Sendable {}

@Suite("Sink and Assign release what they hold once they complete or are cancelled, as in Combine", .timeLimit(.minutes(12)))
struct SubscriberReleaseTests {
    @Test("a cancelled sink releases its closures, subscribed or not")
    func sinkCancelReleases() {
        for subscribed in [true, false] {
            weak var weakCaptured: Captured?
            let sink: Subscribers.Sink<Int, Never> = {
                let captured = Captured()
                weakCaptured = captured
                return Subscribers.Sink(receiveCompletion: { _ in _ = captured }, receiveValue: { _ in _ = captured })
            }()
            let subject = PassthroughSubject<Int, Never>()
            if subscribed { subject.subscribe(sink) }
            #expect(weakCaptured != nil)
            sink.cancel()
            #expect(weakCaptured == nil, "subscribed: \(subscribed)")
        }
    }

    @Test("a sink releases its closures once it completes, after running receiveCompletion")
    func sinkCompletionReleases() {
        weak var weakCaptured: Captured?
        var completions = 0
        let sink: Subscribers.Sink<Int, Never> = {
            let captured = Captured()
            weakCaptured = captured
            return Subscribers.Sink(receiveCompletion: { _ in _ = captured; completions += 1 }, receiveValue: { _ in })
        }()
        Just(1).subscribe(sink)
        #expect(completions == 1)
        #expect(weakCaptured == nil)
    }

    @Test("a sink cancelled from inside receiveValue finishes that call, then releases its closures")
    func sinkCancelInsideValue() {
        weak var weakCaptured: Captured?
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = subject.sink { value in
                cancellable?.cancel()
                seen.append(value)   // still running after the cancel, the closure is intact
                _ = captured
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(seen == [1])
        #expect(weakCaptured == nil)
    }

    @Test("after completion or cancel, receiveValue and receiveCompletion are closures that do nothing")
    func sinkAccessorsAfterCancel() {
        var calls = 0
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in calls += 1 }, receiveValue: { _ in calls += 1 })
        sink.receiveValue(1)
        #expect(calls == 1)
        sink.cancel()
        sink.receiveValue(2)
        sink.receiveCompletion(.finished)
        #expect(calls == 1)
    }

    @Test("a cancel from another thread racing with deliveries never frees a closure that is running, and releases it")
    func sinkCancelRacesDelivery() async {
        for _ in 0..<StressBudget.scaled(2_000) {
            let released = Gate()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable: AnyCancellable = {
                let probe = DeinitProbe(released)
                return subject.sink { _ in _ = probe }
            }()
            let cancel = UncheckedBox(cancellable)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for i in 0..<20 { subject.send(i) } }
                group.addTask { cancel.value.cancel() }
            }
            await released.wait()
            #expect(released.isOpen)
        }
    }

    @Test("Assign ignores a value that arrives before its subscription or after its completion")
    func assignIgnoresOutOfContract() {
        final class Model { var count = 0 }
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        _ = assign.receive(12)
        #expect(model.count == 0)
        let publisher = ControllablePublisher<Int, Never>()
        publisher.subscribe(assign)
        _ = assign.receive(3)
        #expect(model.count == 3)
        assign.receive(completion: .finished)
        _ = assign.receive(4)
        #expect(model.count == 3)
        #expect(assign.object == nil)
    }

    @MainActor @Test("assign(to:on:) made on the main actor writes on the main actor, in order, then releases the object at the completion")
    func assignOnMainActor() async {
        let model = MainModel()
        let subject = PassthroughSubject<Int, Never>()
        weak let weakModel = model
        let cancellable = subject.assign(to: \.count, on: model)
        await Task.detached { for i in 1...50 { subject.send(i) }; subject.send(completion: .finished) }.value
        await model.log.wait(for: 50)
        #expect(model.log.values == Array(1...50))
        #expect(model.log.allIsolated)
        _ = cancellable
        let log = model.log
        _ = consume model
        await log.waitUntilReleased()
        #expect(weakModel == nil)
    }
}

@MainActor
private final class MainModel {
    let log = IsolationLog<Int>()
    var count = 0 { didSet { log.record(count, isolated: MainQueue.isCurrent) } }
    deinit { log.markReleased() }
}
