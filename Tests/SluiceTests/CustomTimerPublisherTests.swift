import Dispatch
@_spi(Internals) import Sluice
import SluiceTesting
import Testing

/// A timer publisher written the way Combine users write one: a custom `Subscription` class
/// driving a `DispatchSourceTimer`, emitting a tick count only while there is demand.
private struct TickPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    /// Called on each tick that found no demand (lets a test wait for one without sleeping).
    let onIdleTick: @Sendable () -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = TickSubscription(downstream: subscriber, onIdleTick: onIdleTick)
        subscriber.receive(subscription: subscription)
        subscription.start()
    }
}

private final class TickSubscription<Downstream: Subscriber>: Subscription
where Downstream.Input == Int, Downstream.Failure == Never {
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var ticks = 0
    }

    private let state: Locked<State>
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ticks"))
    private let onIdleTick: @Sendable () -> Void

    init(downstream: Downstream, onIdleTick: @escaping @Sendable () -> Void) {
        state = Locked(State(downstream: downstream))
        self.onIdleTick = onIdleTick
    }

    func start() {
        timer.schedule(deadline: .now(), repeating: .milliseconds(1))
        // Weak, so the subscription can go away even if nobody cancels; `cancel()` stops the timer.
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    private func tick() {
        let next = state.withLock { state -> (Downstream, Int)? in
            guard let downstream = state.downstream, state.demand > 0 else { return nil }
            state.demand -= 1
            state.ticks += 1
            return (downstream, state.ticks)
        }
        guard let (downstream, count) = next else {
            onIdleTick()
            return
        }
        let more = downstream.receive(count)
        state.withLock { $0.demand += more }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let downstream = state.withLock { state -> Downstream? in
            defer { state.downstream = nil }
            return state.downstream
        }
        if downstream != nil { timer.cancel() }
    }
}

/// Resumes a waiting test once, on the first idle tick after being armed.
private final class IdleGate: Sendable {
    private let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)

    func arm() async {
        await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
        }
    }

    func idleTick() {
        waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            defer { waiter = nil }
            return waiter
        }?.resume()
    }
}

@Suite(.timeLimit(.minutes(2))) struct CustomTimerPublisherTests {
    @Test func timerEmitsOnlyWhileThereIsDemand() async {
        let gate = IdleGate()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        TickPublisher(onIdleTick: { gate.idleTick() }).subscribe(recorder)
        recorder.request(.max(3))
        await recorder.waitForValues(count: 3)
        // A tick that found no demand has happened: nothing beyond the three was sent.
        await gate.arm()
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(2))
        await recorder.waitForValues(count: 5)
        await gate.arm()
        #expect(recorder.values == [1, 2, 3, 4, 5])
        recorder.cancel()
        #expect(recorder.violations.isEmpty)
    }
}
