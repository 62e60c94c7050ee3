export { assetDeps } from '../../shared/application/assets/deps';
