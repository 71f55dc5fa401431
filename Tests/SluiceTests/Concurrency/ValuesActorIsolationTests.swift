import Sluice
import SluiceTesting
import Testing

/// An actor on a ``QueueExecutor`` that consumes `values` and notes, at each step, whether
/// it is still on its own executor.
private actor Consumer {
    let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Steps seen off this actor (empty when the whole loop stayed on it).
    private(set) var offActor: [String] = []

    private func check(_ step: String) {
        assertIsolated("\(step) off the actor")
        if !executor.isCurrent { offActor.append(step) }
        if (#isolation as AnyObject?) !== self { offActor.append("\(step): #isolation") }
    }

    /// A `for await` loop.
    func loop<P: Publisher & Sendable>(over publisher: P) async -> [P.Output] where P.Failure == Never {
        var received: [P.Output] = []
        check("before the loop")
        for await value in publisher.values {
            check("loop body")
            received.append(value)
        }
        check("after the loop")
        return received
    }

    /// The same loop, with the iterator's `next(isolation:)` called by hand.
    func iterate<P: Publisher & Sendable>(over publisher: P) async -> [P.Output] where P.Failure == Never {
        var received: [P.Output] = []
        var iterator = publisher.values.makeAsyncIterator()
        while true {
            check("before next()")
            guard let value = await iterator.next(isolation: self) else { break }
            check("after next()")
            received.append(value)
        }
        return received
    }

    /// Records whether the caller runs on this actor's executor; for upstream callbacks.
    nonisolated func noteUpstreamCall(_ calls: Locked<[Bool]>) {
        let onActor = executor.isCurrent
        calls.withLock { $0.append(onActor) }
    }
}

@Suite struct ValuesActorIsolationTests {
    @Test("A for-await loop over values on a custom actor stays on it, and next() requests from it")
    func forAwaitLoopStaysOnTheActor() async {
        let consumer = Consumer()
        let requests = Locked<[Bool]>([])
        // Delivers inside request(_:): the value reaches the iterator in the requesting call.
        let publisher = DemandWatch(SyncRangePublisher(0..<5)) { consumer.noteUpstreamCall(requests) }
        #expect(await consumer.loop(over: publisher) == Array(0..<5))
        #expect(await consumer.offActor == [])
        #expect(requests.withLock { $0 }.count >= 5)
        #expect(requests.withLock { $0 }.allSatisfy { $0 }, "request(_:) made off the actor")
    }

    @Test("next(isolation:) called by hand on a custom actor, with values from another task, stays on it")
    func nextWithIsolationStaysOnTheActorWhileSuspended() async {
        let consumer = Consumer()
        let requests = Locked<[Bool]>([])
        // Values come from the producer's task: next() suspends and is resumed.
        let producer = Producer<Int, Never> { sender in
            for n in 0..<5 { await sender.send(n) }
        }
        let publisher = DemandWatch(producer) { consumer.noteUpstreamCall(requests) }
        #expect(await consumer.iterate(over: publisher) == Array(0..<5))
        #expect(await consumer.offActor == [])
        #expect(requests.withLock { $0 }.count >= 5)
        #expect(requests.withLock { $0 }.allSatisfy { $0 }, "request(_:) made off the actor")
    }
}
