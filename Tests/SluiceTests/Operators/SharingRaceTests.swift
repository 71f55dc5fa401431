import Testing
import Sluice
import SluiceTesting

/// Counts the subscriptions an upstream gives and the cancels they receive.
private final class SubscriptionCounts: Sendable {
    private let counts = Locked((subscribed: 0, cancelled: 0))
    var subscribed: Int { counts.withLock { $0.subscribed } }
    var cancelled: Int { counts.withLock { $0.cancelled } }
    func subscribe() { counts.withLock { $0.subscribed += 1 } }
    func cancel() { counts.withLock { $0.cancelled += 1 } }
}

@Suite("Races of the sharing operators: subscribe, connect and cancel from several threads", .timeLimit(.minutes(12)))
struct SharingRaceTests {
    @Test("share: subscribers joining and cancelling on four threads while a fifth sends — every connection cancelled once, no value after a cancel", arguments: 0..<200)
    func shareSubscribeCancelRace(round: Int) {
        let source = PassthroughSubject<Int, Never>()
        let counts = SubscriptionCounts()
        let shared = Shared(source.handleEvents(receiveSubscription: { _ in counts.subscribe() },
                                                receiveCancel: { counts.cancel() }).share())
        let recorders = Locked<[RecordingSubscriber<Int, Never>]>([])
        runConcurrently(threads: 5) { thread in
            guard thread > 0 else {
                for value in 0..<50 { source.send(value) }
                return
            }
            for _ in 0..<3 {
                let recorder = RecordingSubscriber<Int, Never>(initialDemand: thread.isMultiple(of: 2) ? .unlimited : .max(5))
                recorders.withLock { $0.append(recorder) }
                shared.value.subscribe(recorder)
                recorder.cancel()
            }
        }
        #expect(counts.subscribed >= 1)
        #expect(counts.cancelled == counts.subscribed, "every connection cancelled, each once, once all have left")
        for recorder in recorders.withLock({ $0 }) {
            #expect(recorder.violations.isEmpty, "\(recorder.violations)")
            let values = recorder.values
            #expect(values == values.sorted() && Set(values).count == values.count, "no duplicate, no reordering")
        }
    }

    @Test("multicast: connections made and cancelled on several threads, one cancelled from two at once — each upstream subscription cancelled exactly once", arguments: 0..<200)
    func multicastConnectCancelRace(round: Int) {
        let upstream = ControllablePublisher<Int, Never>()
        let multicast = Shared(upstream.multicast { PassthroughSubject<Int, Never>() })
        let connection = Shared(multicast.value.connect())
        let recorder = RecordingSubscriber<Int, Never>()
        runConcurrently(threads: 5) { thread in
            switch thread {
            case 0, 1: connection.value.cancel()
            case 2, 3: multicast.value.connect().cancel()
            default:
                multicast.value.subscribe(recorder)
                recorder.cancel()
            }
        }
        #expect(upstream.subscriptions.count == 3)
        #expect(upstream.subscriptions.allSatisfy { $0.cancelCount == 1 })
        for subscription in upstream.subscriptions { subscription.send(1) }
        #expect(recorder.values.isEmpty && recorder.violations.isEmpty)
    }

    @Test("autoconnect: the last subscriber's cancel racing a new subscriber's arrival — the newcomer is connected, and the connections end cancelled", arguments: 0..<200)
    func autoconnectLeaveJoinRace(round: Int) {
        let upstream = ControllablePublisher<Int, Never>()
        let auto = Shared(upstream.makeConnectable().autoconnect())
        let leaving = RecordingSubscriber<Int, Never>()
        auto.value.subscribe(leaving)
        let joining = RecordingSubscriber<Int, Never>()
        runConcurrently(threads: 2) { thread in
            if thread == 0 { leaving.cancel() } else { auto.value.subscribe(joining) }
        }
        let live = upstream.subscriptions.filter { $0.cancelCount == 0 }
        #expect(live.count == 1, "exactly one connection stays, for the newcomer")
        live.first?.send(7)
        #expect(joining.values == [7] && leaving.values.isEmpty)
        joining.cancel()
        #expect(upstream.subscriptions.allSatisfy { $0.cancelCount == 1 })
    }
}
