export {
  LaptopIntegrationTester,
  httpTargetOf,
  describeMqttError,
  describeNetworkError,
} from './laptop-test';
