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

    /// A `for await` loop in generic code: `next(isolation:)` is reached through the
    /// protocol's witness, which must bring the call to this actor.
    func loopGeneric<S: AsyncSequence>(over sequence: S) async -> [S.Element] where S.Failure == Never {
        var received: [S.Element] = []
        for await value in sequence {
            check("generic loop body")
            received.append(value)
        }
        check("after the generic loop")
        return received
    }

    /// Records whether the caller runs on this actor's executor; for upstream callbacks.
    nonisolated func noteUpstreamCall(_ calls: Locked<[Bool]>) {
        let onActor = executor.isCurrent
        calls.withLock { $0.append(onActor) }
    }
}

@Suite(.timeLimit(.minutes(12))) struct ValuesActorIsolationTests {
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

    @Test("A for-await loop in generic code (through the protocol's witness) stays on the actor")
    func genericLoopStaysOnTheActor() async {
        let consumer = Consumer()
        let requests = Locked<[Bool]>([])
        let publisher = DemandWatch(SyncRangePublisher(0..<5)) { consumer.noteUpstreamCall(requests) }
        #expect(await consumer.loopGeneric(over: publisher.values) == Array(0..<5))
        #expect(await consumer.offActor == [])
        #expect(requests.withLock { $0 }.count >= 5)
        #expect(requests.withLock { $0 }.allSatisfy { $0 }, "request(_:) made off the actor")
    }

    @MainActor @Test("A for-await loop on the main actor requests from the main actor")
    func mainActorLoopRequestsFromTheMainActor() async {
        let requests = Locked<[Bool]>([])
        // The detector itself: true here, false on the global executor.
        #expect(MainQueue.isCurrent, "the main actor runs on the main queue here")
        #expect(await Task.detached { MainQueue.isCurrent }.value == false)
        let publisher = DemandWatch(SyncRangePublisher(0..<5)) {
            // Called synchronously inside next(): still on the main actor, or it hopped.
            let onMain = MainQueue.isCurrent
            requests.withLock { $0.append(onMain) }
        }
        var received: [Int] = []
        for await value in publisher.values {
            MainActor.assertIsolated("loop body off the main actor")
            received.append(value)
        }
        #expect(received == Array(0..<5))
        #expect(requests.withLock { $0 }.count >= 5)
        #expect(requests.withLock { $0 }.allSatisfy { $0 }, "request(_:) made off the main actor")
    }
}
