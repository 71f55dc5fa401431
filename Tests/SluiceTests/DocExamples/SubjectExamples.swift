import Sluice
import Testing

// The examples in the doc comments of Core/Subject.swift, compiled and run.

@Suite struct SubjectExamples {
    @Test func nothingFollowsTheCompletion() {
        // snippet SubjectSend begin
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.sink { received.append($0) }
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)                        // ignored: received == [1]
        #expect(received == [1])
        cancellable.cancel()                   // nothing to stop: the subscription has finished
        // snippet SubjectSend end
    }
}
