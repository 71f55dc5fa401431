import Sluice
import SluiceTesting
import Testing

// The examples in the doc comments of Subjects/PassthroughSubject.swift, compiled and run.

@Suite struct PassthroughSubjectExamples {
    @Test func valuesWithoutDemandAreMissed() {
        // snippet PassthroughSubjectDemand begin
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .none)   // from SluiceTesting
        subject.subscribe(subscriber)
        subject.send(1)                 // missed: no demand yet
        subscriber.request(.max(1))
        subject.send(2)                 // delivered: values == [2]
        subject.send(3)                 // missed: the demand is used up
        #expect(subscriber.values == [2])
        // snippet PassthroughSubjectDemand end
        subscriber.cancel()   // the recorder keeps its subscription: end it, so that neither outlives the test
    }
}
