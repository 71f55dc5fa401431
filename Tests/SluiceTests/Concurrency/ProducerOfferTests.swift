@testable import Sluice
import SluiceTesting
import Testing
import Dispatch

/// A `send` waiting for demand offers its value to the request that brings the demand: that
/// request delivers it, inside the call, before the body's task is resumed.
@Suite(.timeLimit(.minutes(12))) struct ProducerOfferTests {
    /// Subscribes `recorder` (which has no demand yet) to `producer`, requests one value,
    /// and returns once the body waits in its second `send`, with the subscription.
    private func subscribeUntilTheSecondSendWaits<Output: Sendable>(
        _ producer: Producer<Output, Never>, _ recorder: RecordingSubscriber<Output, Never>
    ) async -> TaskSubscription {
        producer.subscribe(recorder)
        recorder.request(.max(1))  // starts the body, which delivers its first value itself
        let subscription = recorder.subscription as! TaskSubscription
        await waitUntilOffering(subscription)
        return subscription
    }

    /// Returns once the body waits with an offer, or fails when the test is cancelled (by its
    /// time limit): a body that never offers must end the test, not leave it spinning.
    private func waitUntilOffering(_ subscription: TaskSubscription) async {
        while !subscription.isOffering && !Task.isCancelled { await Task.yield() }
        #expect(subscription.isOffering, "the body never waited with its value offered")
    }

    private static let counting = Producer<Int, Never> { sender in
        var n = 1
        while await sender.send(n) { n += 1 }
    }

    @Test func aWaitingValueIsDeliveredInsideTheRequestOnItsThreadAndSendThenReturnsTrue() async {
        let key = DispatchSpecificKey<UInt8>()
        let requester = DispatchQueue(label: "requester")
        requester.setSpecific(key: key, value: 1)
        let onRequester = Locked<[Bool]>([])
        let returned = Locked<[Bool]>([])
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        recorder.onValue { _ in
            onRequester.withLock { $0.append(DispatchQueue.getSpecific(key: key) == 1) }
            return .none
        }
        let producer = Producer<Int, Never> { sender in
            for n in 1...2 { let sent = await sender.send(n); returned.withLock { $0.append(sent) } }
        }
        _ = await subscribeUntilTheSecondSendWaits(producer, recorder)

        requester.sync { recorder.request(.max(1)) }
        #expect(recorder.values == [1, 2])  // before the request returned
        #expect(onRequester.withLock { $0 } == [false, true])
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(returned.withLock { $0 } == [true, true])
        #expect(recorder.violations.isEmpty)
    }

    @Test func theRestOfTheRequestedDemandGoesToTheBody() async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        let subscription = await subscribeUntilTheSecondSendWaits(Self.counting, recorder)

        recorder.request(.max(3))  // 2 here; 3 and 4 by the body, which then waits with 5
        await waitUntilOffering(subscription)
        #expect(recorder.values == [1, 2, 3, 4])
        recorder.cancel()
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandRequestedDuringTheOfferedDeliveryGoesToTheBody() async {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        recorder.onValue { [weak recorder] value in
            if value == 2 { recorder?.request(.max(1)) }  // re-entrant, inside request(.max(1))
            return value == 2 ? .max(1) : .none           // and returned: 3 and 4 by the body
        }
        let subscription = await subscribeUntilTheSecondSendWaits(Self.counting, recorder)

        recorder.request(.max(1))
        await waitUntilOffering(subscription)
        #expect(recorder.values == [1, 2, 3, 4])
        recorder.cancel()
        #expect(recorder.violations.isEmpty)
    }

    @Test func aCancelDuringTheOfferedDeliveryLetsThatSendReturnTrueAndRefusesTheNext() async {
        let ended = Gate()
        let results = Locked<[Bool]>([])
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        recorder.onValue { [weak recorder] value in
            guard value == 2 else { return .none }  // the body then waits with 2
            recorder?.cancel()
            return .unlimited  // demand for 3, refused all the same
        }
        let producer = Producer<Int, Never> { sender in
            for n in 1...3 { let sent = await sender.send(n); results.withLock { $0.append(sent) } }
            ended.open()
        }
        _ = await subscribeUntilTheSecondSendWaits(producer, recorder)

        recorder.request(.max(1))
        await ended.wait()
        #expect(results.withLock { $0 } == [true, true, false])
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aCancelWhileOfferingDropsTheValueBeforeSendReturns() async {
        let released = Gate()
        let returned = Gate()
        let hold = Gate()
        let sent = Locked<Bool?>(nil)
        let recorder = RecordingSubscriber<DeinitProbe, Never>(initialDemand: .none)
        let producer = Producer<DeinitProbe, Never> { sender in
            await sender.send(DeinitProbe(Gate()))
            let result = await sender.send(DeinitProbe(released))
            sent.withLock { $0 = result }
            returned.open()
            await hold.waitIgnoringCancellation(for: "the test to let the body end")  // the body, and its sender, stay alive
        }
        _ = await subscribeUntilTheSecondSendWaits(producer, recorder)

        recorder.cancel()
        await returned.wait()
        #expect(sent.withLock { $0 } == false)
        #expect(released.isOpen)
        #expect(recorder.events.count == 2)  // the subscription and the first value
        hold.open()
    }
}
