import Testing
@testable import SluiceExamples

/// The examples build with the package and run here: each against its own local server or
/// producer, with the results a reader of the example expects.
@Suite("Runnable examples", .timeLimit(.minutes(1)))
struct ExamplesTests {
    @Test("the hand-written publisher, subscription and subscriber decode the server's forecast")
    func handWrittenDataTask() async throws {
        #expect(try await DataTaskExamples.handWritten() == Forecast(city: "Bergen", celsius: 7))
    }

    @Test("dataTaskPublisher(for:).map(\\.data).decode(...) gets the same forecast")
    func dataTaskWithOperators() async throws {
        #expect(try await DataTaskExamples.withOperators() == Forecast(city: "Bergen", celsius: 7))
    }

    @Test("the model reaches 100%, its observers told before each of the five progress changes and the end")
    @MainActor
    func producerDrivenModel() async {
        let result = await ProducerModelExample.run(chunks: 5)
        #expect(result.progress == 1.0)
        #expect(result.changes == 6)
    }
}
