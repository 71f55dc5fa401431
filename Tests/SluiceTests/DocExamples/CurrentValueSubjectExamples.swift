import Sluice
import Testing

// The examples in the doc comments of Subjects/CurrentValueSubject.swift, compiled and run.

@Suite struct CurrentValueSubjectExamples {
    @Test func subscriberGetsTheCurrentValueThenTheChanges() {
        // snippet CurrentValueSubjectReplay begin
        let temperature = CurrentValueSubject<Int, Never>(20)
        var readings: [Int] = []
        var cancellables = Set<AnyCancellable>()
        temperature.sink { readings.append($0) }.store(in: &cancellables)   // 20, at once
        #expect(readings == [20])
        temperature.value = 21
        temperature.send(22)                                                // readings == [20, 21, 22]
        #expect(readings == [20, 21, 22])
        // snippet CurrentValueSubjectReplay end
    }
}
