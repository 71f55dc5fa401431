import Testing
@testable import SluiceExamples

/// The examples build with the package and run here: each against its own local server or
/// producer, with the results a reader of the example expects.
@Suite("Runnable examples", .timeLimit(.minutes(12)))
struct ExamplesTests {
    @Test("the hand-written publisher, subscription and subscriber decode the server's forecast")
    func handWrittenDataTask() async throws {
        #expect(try await DataTaskExamples.handWritten() == Forecast(city: "Bergen", celsius: 7))
    }

    @Test("dataTaskPublisher(for:).map(\\.data).decode(...) gets the same forecast")
    func dataTaskWithOperators() async throws {
        #expect(try await DataTaskExamples.withOperators() == Forecast(city: "Bergen", celsius: 7))
    }

    @Test("the timer's subscriber gets six ticks, three at a time, the second three only after its pause")
    func timerDemand() async {
        let ticks = await TimerDemandExample.run()
        #expect(ticks.count == 6)
        #expect(ticks == ticks.sorted())
        // The fourth tick came after the request made 50 ms after the third (asyncAfter never
        // runs early); the ticks in between were dropped, not queued.
        #expect(ticks[3].timeIntervalSince(ticks[2]) >= 0.05)
    }

    @Test("the model reaches 100%, its observers told before each of the five progress changes and the end")
    @MainActor
    func producerDrivenModel() async {
        let result = await ProducerModelExample.run(chunks: 5)
        #expect(result.progress == 1.0)
        #expect(result.changes == 6)
    }
}
