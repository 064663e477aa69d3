// The error type and its envelope live in the shared rules (packages/rules): the mocks throw the same.
export * from "@gmi/rules/errors";
