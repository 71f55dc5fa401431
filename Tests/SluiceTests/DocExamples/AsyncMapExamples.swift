import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in AsyncMap.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

private struct LoadError: Error {}

private func loadThumbnail(_ url: String) async throws(LoadError) -> String { "thumbnail of \(url)" }

private func search(_ query: String) async -> String { "results for \(query)" }

@Suite(.timeLimit(.minutes(12))) struct AsyncMapExamples {
    @Test func thumbnailsArriveInTheOrderOfTheirURLs() async {
        let urls = ["a", "b", "c", "d", "e"].publisher.setFailureType(to: LoadError.self)
        // snippet AsyncMapThumbnails begin
        let thumbnails = urls.asyncMap(maxConcurrent: 4) { url throws(LoadError) in
            try await loadThumbnail(url)  // cancelled with the subscription
        }
        // snippet AsyncMapThumbnails end
        let recorder = RecordingSubscriber<String, LoadError>()
        thumbnails.subscribe(recorder)
        await recorder.waitForCompletion()
        #expect(recorder.values == ["a", "b", "c", "d", "e"].map { "thumbnail of \($0)" })
        #expect(recorder.violations.isEmpty)
    }

    @Test func theLatestQueryAlwaysGetsItsResults() async {
        let queries = ["s", "sw", "swift"].publisher
        // snippet AsyncMapLatestSearch begin
        let results = queries.asyncMapLatest { query in await search(query) }
        // snippet AsyncMapLatestSearch end
        let recorder = RecordingSubscriber<String, Never>()
        results.subscribe(recorder)
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.values.last == "results for swift")
    }
}
