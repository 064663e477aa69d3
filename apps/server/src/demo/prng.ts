// Moved to the shared rules (packages/rules): the demo generator and the mock worlds draw from it.
export * from "@gmi/rules/prng";
