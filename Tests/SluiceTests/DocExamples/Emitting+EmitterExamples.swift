import Sluice
import SluiceTesting
import Synchronization
import Testing

// The examples in the doc comments of Publishers/Emitting/Emitting+Emitter.swift, compiled and run.

/// A clock whose ticks the test sends by hand.
private final class ManualTicks: Sendable {
    private let handlers = Mutex<[Int: @Sendable (Int) -> Void]>([:])
    private let nextToken = Atomic<Int>(0)

    func onTick(_ handler: @escaping @Sendable (Int) -> Void) -> Int {
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).newValue
        handlers.withLock { $0[token] = handler }
        return token
    }

    func remove(_ token: Int) { handlers.withLock { _ = $0.removeValue(forKey: token) } }

    var observerCount: Int { handlers.withLock { $0.count } }

    func tick(_ tick: Int) {
        for handler in handlers.withLock({ Array($0.values) }) { handler(tick) }
    }
}

@Suite struct CreateEmitterExamples {
    @Test func ticksWithoutDemandAreDroppedAndCancelStopsTheClock() {
        let clock = ManualTicks()
        // snippet CreateEmitterDropsWithoutDemand begin
        let ticks = AnyPublisher<Int, Never>.emitting { emitter in
            let token = clock.onTick { tick in
                _ = emitter.send(tick)   // false, and dropped, while there is no demand
            }
            emitter.onCancel { clock.remove(token) }
        }
        // snippet CreateEmitterDropsWithoutDemand end
        let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .none)
        ticks.subscribe(subscriber)
        clock.tick(1)
        #expect(subscriber.values.isEmpty)   // refused by the emitter: no demand
        subscriber.request(.max(1))
        clock.tick(2)
        clock.tick(3)
        #expect(subscriber.values == [2])
        subscriber.cancel()
        #expect(clock.observerCount == 0)
    }
}
