import Sluice

/// The runnable examples: `swift run SluiceExamples` runs them all and prints what each did.
@main
struct SluiceExamples {
    static func main() async throws {
        print("hand-written decoded data task:", try await DataTaskExamples.handWritten())
        print("dataTaskPublisher + decode:", try await DataTaskExamples.withOperators())
        let ticks = await TimerDemandExample.run()
        print("timer, three ticks at a time with a pause:", ticks.map { $0.timeIntervalSince(ticks[0]) })
        let download = await ProducerModelExample.run(chunks: 5)
        print("ObservableObject driven by a Producer: \(download.changes) changes, progress \(download.progress)")
    }
}
