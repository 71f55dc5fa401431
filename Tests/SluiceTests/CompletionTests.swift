import Foundation
import Sluice
import Testing

/// A Codable, Hashable error, to encode inside a completion.
struct CompletionTestError: Error, Codable, Hashable {
    var code: Int
    var reason: String
}

@Suite("Subscribers.Completion: Hashable and Codable")
struct CompletionTests {
    typealias Completion = Subscribers.Completion<CompletionTestError>

    @Test("Equal completions hash alike; finished and failures with different errors differ")
    func hashable() {
        let failure = Completion.failure(CompletionTestError(code: 1, reason: "a"))
        #expect(failure.hashValue == Completion.failure(CompletionTestError(code: 1, reason: "a")).hashValue)
        let set: Set<Completion> = [
            .finished, .finished, failure, .failure(CompletionTestError(code: 1, reason: "a")),
            .failure(CompletionTestError(code: 2, reason: "a")),
        ]
        #expect(set.count == 3)
        #expect(set.contains(.failure(CompletionTestError(code: 2, reason: "a"))))
        #expect(!set.contains(.failure(CompletionTestError(code: 3, reason: "a"))))
    }

    @Test("JSON round trip keeps .finished and .failure with its error", arguments: [
        Completion.finished, .failure(CompletionTestError(code: 42, reason: "timeout")),
    ])
    func jsonRoundTrip(completion: Completion) throws {
        let data = try JSONEncoder().encode(completion)
        #expect(try JSONDecoder().decode(Completion.self, from: data) == completion)
    }

    @Test("The JSON is Combine's shape: {\"success\": true} or {\"success\": false, \"error\": …}")
    func jsonShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(Completion.finished), as: UTF8.self) == #"{"success":true}"#)
        let failure = Completion.failure(CompletionTestError(code: 7, reason: "x"))
        #expect(
            String(decoding: try encoder.encode(failure), as: UTF8.self)
                == #"{"error":{"code":7,"reason":"x"},"success":false}"#)
        let decoded = try JSONDecoder().decode(
            Completion.self, from: Data(#"{"success":false,"error":{"code":9,"reason":"y"}}"#.utf8))
        #expect(decoded == .failure(CompletionTestError(code: 9, reason: "y")))
    }

    @Test("Decoding a failure without its error throws")
    func decodingAFailureWithoutErrorThrows() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Completion.self, from: Data(#"{"success":false}"#.utf8))
        }
    }
}
