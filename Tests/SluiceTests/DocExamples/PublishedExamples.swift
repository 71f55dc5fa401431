import Sluice
import Testing

// The examples in the doc comments of Publishers/Published/Published.swift, compiled and run.

// snippet PublishedAssignTo begin
final class TickCounter: ObservableObject {
    @Published var latest = 0
    init(ticks: some Publisher<Int, Never>) { ticks.assign(to: &$latest) }
}
// snippet PublishedAssignTo end

@Suite struct PublishedExamples {
    @Test func valueIsSentBeforeItIsStored() {
        // snippet PublishedBeforeStored begin
        final class Weather {
            @Published var temperature: Double
            init(temperature: Double) { self.temperature = temperature }
        }

        let weather = Weather(temperature: 20)
        var sent: [Double] = [], stored: [Double] = []
        let cancellable = weather.$temperature.sink { sent.append($0); stored.append(weather.temperature) }
        weather.temperature = 25        // sent == [20, 25], stored == [20, 20]: sent before it is stored
        #expect(sent == [20, 25])
        #expect(stored == [20, 20])
        cancellable.cancel()
        // snippet PublishedBeforeStored end
    }

    @Test func assignToFeedsThePropertyWithoutACycle() {
        let ticks = PassthroughSubject<Int, Never>()
        weak var released: TickCounter?
        do {
            let counter = TickCounter(ticks: ticks)
            ticks.send(3)
            #expect(counter.latest == 3)
            released = counter
        }
        #expect(released == nil)   // the subscription did not keep the object
        ticks.send(4)              // goes nowhere
    }
}
