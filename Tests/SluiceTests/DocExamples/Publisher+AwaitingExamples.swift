import Sluice
import Testing

// The doc comments' examples in Publisher+Awaiting.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct PublisherAwaitingExamples {
    @Test(arguments: [(["ada"], ["ada"]), (["ada", "bob"], [nil])] as [([String], [String?])])
    func oneUserIsGreetedAndTwoAreAmbiguous(found: [String], greeted expected: [String?]) async {
        let users = found.publisher
        var greeted: [String?] = []
        func greet(_ user: String?) { greeted.append(user) }
        // snippet OnlyValueErrorCatch begin
        do throws(OnlyValueError<Never>) {
            let user = try await users.onlyValue()
            greet(user)
        } catch .moreThanOneValue {
            greet(nil)   // ambiguous: the subscription was cancelled at the second user
        } catch {
            // .noValue, .cancelled or .failure(_)
        }
        // snippet OnlyValueErrorCatch end
        #expect(greeted == expected)
    }
}
