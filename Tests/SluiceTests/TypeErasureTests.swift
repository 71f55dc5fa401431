import Testing
@testable import Sluice
import SluiceTesting

/// A publisher that keeps what `receive(subscriber:)` was handed.
private final class Keeping<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // Safe: used by one test on one thread.
    var received: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        received = subscriber
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

@Suite("eraseToAnyPublisher(): the boundary hands the publisher an AnySubscriber that stands for the subscriber")
struct TypeErasureTests {
    @Test("the wrapped publisher receives an AnySubscriber with the subscriber's identifier, description and mirror")
    func theWrappedPublisherReceivesAnAnySubscriber() throws {
        let keeping = Keeping<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        keeping.eraseToAnyPublisher().subscribe(sink)
        let received = try #require(keeping.received as? AnySubscriber<Int, Never>)
        #expect(received.combineIdentifier == sink.combineIdentifier)
        #expect(received.description == sink.description)
        #expect(ObjectIdentifier(received.customMirror.subjectType) == ObjectIdentifier(sink.customMirror.subjectType))
    }

    @Test("an AnySubscriber is handed on as it is, not wrapped again")
    func anAnySubscriberIsNotWrappedAgain() throws {
        let keeping = Keeping<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        let erased = AnySubscriber(recorder)
        keeping.eraseToAnyPublisher().eraseToAnyPublisher().subscribe(erased)
        let received = try #require(keeping.received as? AnySubscriber<Int, Never>)
        #expect(received.box === erased.box)
    }

    @Test("values, demand and the completion cross the boundary both ways")
    func signalsCrossTheBoundary() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        subject.map { $0 * 10 }.eraseToAnyPublisher().map { $0 + 1 }.eraseToAnyPublisher().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)  // beyond demand: dropped by the subject
        recorder.request(.max(1))
        subject.send(4)
        subject.send(completion: .finished)
        #expect(recorder.values == [11, 21, 41])
        #expect(recorder.completion == .finished)
    }

    @Test("a sink subscribed to a subject through the boundary is called through its entries, as without it")
    func aSinkBehindTheBoundaryKeepsTheSubjectsEntries() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.eraseToAnyPublisher().subscribe(sink)
        let calledBySubject = sink.calledBySubject.load(ordering: .acquiring)
        #expect(calledBySubject)
        subject.send(1)
        sink.cancel()
        subject.send(2)
        #expect(received == [1])
    }

    @Test("an AnySubscriber made of closures offers a subject no entries; it is called through receive(_:)")
    func closuresOfferNoEntries() {
        var received: [Int] = []
        let closures = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) }, receiveValue: { received.append($0); return .none })
        let entries = closures.makeSubjectEntries()
        #expect(entries == nil)
        let subject = PassthroughSubject<Int, Never>()
        // A subscriber never cancelled keeps its subscription, and so the subject's storage (as
        // in Combine): the completion ends it, so that leak detection has nothing to report.
        defer { subject.send(completion: .finished) }
        subject.eraseToAnyPublisher().subscribe(closures)
        subject.send(7)
        #expect(received == [7])
    }
}
