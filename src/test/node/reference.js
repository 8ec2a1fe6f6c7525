// The strict HTTP/1.1 reference of the differential test (dev.fulcrum.reliability.LlhttpDifferentialTest): Node's
// own http server, whose parser is llhttp, with no lenient flag. Three servers on loopback:
//   ref      the reference, which the test's raw bytes go to straight;
//   backend  the backend behind Fulcrum, which gets what Fulcrum makes of the same bytes;
//   ctl      GET /sync answers with the number of event lines printed so far (a barrier for the test).
// ref and backend answer every request they accept with 200 and the body "saw <target>". Every message llhttp
// accepts, every error it raises and every connection's start and end is printed on stdout as one JSON line ("head"
// as a message's head is read, "message" once its body ended or broke off):
//   {"srv":"ref","conn":<peer port>,"type":"open"}
//   {"srv":"ref","conn":<peer port>,"seq":<n>,"type":"head"}
//   {"srv":"ref","conn":<peer port>,"seq":<n>,"type":"message","method":..,"url":..,"version":..,
//    "headers":[name, value, ...],"body":<latin1>,"complete":true|false}
//   {"srv":"ref","conn":<peer port>,"seq":<n>,"type":"error","code":"HPE_...","reason":..,"raw":<the bytes parsed>}
//   {"srv":"ref","conn":<peer port>,"type":"closed"}
// The first line is {"type":"ready","ref":<port>,"backend":<port>,"ctl":<port>,"llhttp":<version>}.
// Argument: how long ref keeps an idle connection (ms), so that each case ends with its close.
'use strict';
const http = require('http');

const quietMs = Number(process.argv[2] || 250);
let lines = 0;

function emit(o) {
  lines++;
  process.stdout.write(JSON.stringify(o) + '\n');
}

function server(name, idleMs) {
  const s = http.createServer({
    keepAliveTimeout: idleMs,
    headersTimeout: idleMs * 3,
    requestTimeout: idleMs * 6,
    connectionsCheckingInterval: Math.max(50, Math.floor(quietMs / 3)),
  });
  s.on('connection', (socket) => {
    const conn = socket.remotePort;
    socket.fulcrumSeq = 0;
    emit({srv: name, conn, type: 'open'});
    socket.on('close', () => emit({srv: name, conn, type: 'closed'}));
  });
  s.on('request', (req, res) => {
    const socket = req.socket;
    const conn = socket.remotePort;
    const seq = socket.fulcrumSeq++;
    emit({srv: name, conn, seq, type: 'head'});
    const chunks = [];
    let done = false;
    const record = (complete) => {
      if (done) return;
      done = true;
      emit({srv: name, conn, seq, type: 'message', method: req.method, url: req.url, version: req.httpVersion,
        headers: req.rawHeaders, body: Buffer.concat(chunks).toString('latin1'), complete});
    };
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      record(true);
      res.setHeader('Content-Type', 'text/plain');
      res.end('saw ' + req.url);
    });
    req.on('close', () => record(false));
    req.on('error', () => record(false));
  });
  s.on('clientError', (err, socket) => {
    emit({srv: name, conn: socket.remotePort, seq: socket.fulcrumSeq || 0, type: 'error',
      code: err.code || String(err), reason: err.reason || '',
      raw: err.rawPacket ? Buffer.from(err.rawPacket).toString('latin1') : ''});
    if (socket.writable) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
    socket.destroySoon();
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s.address().port)));
}

function control() {
  const s = http.createServer((req, res) => res.end(String(lines)));
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s.address().port)));
}

Promise.all([server('ref', quietMs), server('backend', 30000), control()]).then(([ref, backend, ctl]) => {
  emit({type: 'ready', ref, backend, ctl, llhttp: process.versions.llhttp, node: process.version});
});
// the test closes standard input when it is done: the process ends with it
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
