import Sluice
import Testing

// The examples in the doc comments of Subjects/Publisher+SubscribeSubject.swift, compiled and run.

@Suite struct PublisherSubscribeSubjectExamples {
    @Test func subjectAsksUpstreamOnceItsSubscriberDoes() {
        // snippet PublisherSubscribeSubject begin
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellables = Set<AnyCancellable>()
        [1, 2, 3].publisher.subscribe(subject).store(in: &cancellables)   // no demand: nothing yet
        subject.sink { received.append($0) }.store(in: &cancellables)     // received == [1, 2, 3]
        #expect(received == [1, 2, 3])
        // snippet PublisherSubscribeSubject end
    }
}
