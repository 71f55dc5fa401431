import Testing
@_spi(Internals) import Sluice
import SluiceTesting

@Suite("A subject used as a subscriber asks its upstreams for nothing until one of its subscribers asks")
struct SubjectUpstreamDemandTests {
    @Test("no subscriber, or one without demand: nothing requested; the first demand: .unlimited, once, to every upstream; a later upstream gets it at once",
          arguments: [false, true])
    func upstreamDemandFollowsDownstream(currentValue: Bool) {
        let subject: any Subject<Int, Never> = currentValue ? CurrentValueSubject<Int, Never>(0) : PassthroughSubject<Int, Never>()
        let first = ControllablePublisher<Int, Never>()
        let firstLink = first.subscribe(subject)
        #expect(first.subscriptions[0].requests.isEmpty)

        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(first.subscriptions[0].requests.isEmpty)

        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(first.subscriptions[0].requests == [.unlimited])

        let second = ControllablePublisher<Int, Never>()
        let secondLink = second.subscribe(subject)
        #expect(second.subscriptions[0].requests == [.unlimited])
        recorder.cancel()
        firstLink.cancel()
        secondLink.cancel()
    }

    @Test("a cold upstream subscribed to a subject nobody listens to does not run")
    func coldUpstreamWaits() {
        let subject = PassthroughSubject<Int, Never>()
        let link = [1, 2, 3].publisher.subscribe(subject)
        var seen: [Int] = []
        let sink = subject.sink { seen.append($0) }
        #expect(seen == [1, 2, 3])   // delivered once the sink asked, not lost before it
        sink.cancel()
        link.cancel()
    }
}
