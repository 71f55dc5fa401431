import Sluice

/// The error tests fail publishers with; `code` tells failures apart.
struct TestError: Error, Equatable {
    var code = 0
}
