// Moved to the shared rules (packages/rules): the server and the SDK's mocks import the same code.
export * from "@gmi/rules/limits/batch-cost";
