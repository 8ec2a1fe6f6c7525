// Reads a HAR document on standard input and validates it against the HAR 1.2 schema.
// Prints "valid" and exits 0, or prints each schema error and exits 1.
const validator = require('har-validator');
let text = '';
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => {
  let har;
  try {
    har = JSON.parse(text);
  } catch (e) {
    console.log('not JSON: ' + e.message);
    process.exit(1);
  }
  validator.har(har).then(() => {
    console.log('valid');
  }).catch((e) => {
    for (const err of e.errors || [e]) {
      console.log((err.dataPath || '') + ' ' + (err.message || String(err)));
    }
    process.exit(1);
  });
});
