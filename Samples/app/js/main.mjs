// The sample's entry module: imports util.mjs and signals the page's self-check.
import { productName, signature } from './util.mjs';

const headline = document.getElementById('headline');
if (headline) headline.textContent = `${productName} sample`;

if (typeof window.sampleModuleLoaded === 'function') {
  window.sampleModuleLoaded(signature());
}
