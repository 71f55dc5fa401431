import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("Relays (CombineExt)")
struct RelayTests {
    @Test("CombineExt PassthroughRelay: accepted values reach subscribers within their demand; a subscriber with none misses them")
    func passthroughWithinDemand() {
        let relay = PassthroughRelay<Int>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        relay.subscribe(recorder)
        relay.accept(1)
        recorder.request(.max(1))
        relay.accept(2)
        relay.accept(3)
        #expect(recorder.values == [2])
        #expect(recorder.violations.isEmpty)
        recorder.cancel()
    }

    @Test("CombineExt Relay.subscribe(_:) forwards a publisher's values but not its finish: the relay goes on")
    func subscribeForwardsValuesOnly() {
        let relay = PassthroughRelay<String>()
        let recorder = RecordingSubscriber<String, Never>()
        relay.subscribe(recorder)
        let forwarding = relay.subscribe(["a", "b"].publisher)
        let reversed = ["c"].publisher.subscribe(relay)
        relay.accept("d")
        #expect(recorder.values == ["a", "b", "c", "d"])
        #expect(recorder.completion == nil)
        forwarding.cancel()
        reversed.cancel()
        recorder.cancel()
    }

    @Test("Relay.subscribe(_:) asks the publisher for .unlimited, and cancelling the result cancels it")
    func subscribeDemandAndCancel() {
        let relay = CurrentValueRelay(0)
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let cancellable = relay.subscribe(upstream)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        _ = upstream.subscriptions[0].send(5)
        #expect(relay.value == 5)
        cancellable.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
    }

    @Test("CombineExt CurrentValueRelay: the current value with the first demand, then each accepted one; value reads the latest")
    func currentValueRelay() {
        let relay = CurrentValueRelay("first")
        let recorder = RecordingSubscriber<String, Never>(initialDemand: .none)
        relay.subscribe(recorder)
        #expect(recorder.values.isEmpty)
        recorder.request(.max(2))
        relay.accept("second")
        relay.accept("third")
        #expect(recorder.values == ["first", "second"])
        #expect(relay.value == "third")
        recorder.cancel()
    }

    @Test("CombineExt accept() on a relay of Void")
    func acceptVoid() {
        let relay = PassthroughRelay<Void>()
        let recorder = RecordingSubscriber<Void, Never>()
        relay.subscribe(recorder)
        relay.accept()
        #expect(recorder.valueCount == 1)
        recorder.cancel()
    }

    @Test("CombineExt: a relay finishes its subscribers when it is deinitialized, which releases them")
    func deinitFinishes() {
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            do {
                let relay = CurrentValueRelay(1)
                relay.subscribe(recorder)
            }
            #expect(recorder.values == [1])
            #expect(recorder.completion == .finished)
        }
        #expect(weakRecorder?.object == nil)
    }

    @Test("A cancelled subscriber and the relay are both released")
    func cancelReleases() {
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        var weakRelay: Weak<PassthroughRelay<Int>>?
        do {
            let relay = PassthroughRelay<Int>()
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            weakRelay = Weak(relay)
            relay.subscribe(recorder)
            relay.accept(1)
            recorder.cancel()
            relay.accept(2)
            #expect(recorder.values == [1])
        }
        #expect(weakRecorder?.object == nil)
        #expect(weakRelay?.object == nil)
    }

    @Test("Relays under concurrent accepts: every subscriber gets every value once, in each sender's order, never overlapping", arguments: [false, true])
    func concurrentAccepts(currentValue: Bool) {
        let senders = 4
        let perSender = StressBudget.scaled(20_000) / senders
        let recorders = (0..<2).map { _ in RecordingSubscriber<Tagged, Never>() }
        let accept: @Sendable (Tagged) -> Void
        if currentValue {
            let relay = CurrentValueRelay(Tagged(sender: 0, rank: -1))
            for recorder in recorders { relay.subscribe(recorder) }
            accept = { relay.accept($0) }
        } else {
            let relay = PassthroughRelay<Tagged>()
            for recorder in recorders { relay.subscribe(recorder) }
            accept = { relay.accept($0) }
        }
        runConcurrently(threads: senders) { sender in
            for rank in 0..<perSender { accept(Tagged(sender: sender, rank: rank)) }
        }
        for recorder in recorders {
            let values = recorder.values.filter { $0.rank >= 0 }
            let (inOrder, counts) = perSenderOrder(values, senders: senders)
            #expect(inOrder)
            #expect(counts == [Int](repeating: perSender, count: senders))
            #expect(recorder.violations.isEmpty)
            recorder.cancel()
        }
    }
}
