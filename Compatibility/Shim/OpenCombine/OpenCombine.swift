// Sluice under OpenCombine's module name, for code that supports Linux through OpenCombine
// (combine-schedulers checks `canImport(OpenCombine)`).
@_exported public import Sluice
