import Sluice
import Testing

// The examples in the doc comments of Core/AnyCancellable.swift, compiled and run.

@Suite struct AnyCancellableExamples {
    @Test func removingFromTheSetCancels() {
        // snippet AnyCancellableStore begin
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellables = Set<AnyCancellable>()
        subject.sink { received.append($0) }.store(in: &cancellables)
        subject.send(1)
        cancellables.removeAll()   // deinitialized, so cancelled
        subject.send(2)            // not delivered: received == [1]
        #expect(received == [1])
        // snippet AnyCancellableStore end
    }
}
