export {
  LaptopIntegrationTester,
  buildTestMessage,
  httpTargetOf,
  describeMqttError,
  describeNetworkError,
  DEFAULT_TEST_TIMEOUT_S,
  MAX_TEST_TIMEOUT_S,
  type LaptopTestOutcome,
  type LaptopTesterDependencies,
} from './laptop-test';
