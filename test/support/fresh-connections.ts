/**
 * Every `fetch` of an end-to-end test opens its own connection. The tests build sites with
 * `spawnSync`, which holds this process's event loop for seconds while the preview server, in its
 * own process, closes connections idle for five seconds (Node's keep-alive timeout). The next
 * `fetch` could then be sent on a pooled socket whose close this process had not read yet, and fail
 * with "other side closed" (seen once on a slow CI machine). A browser retries such a request;
 * undici's fetch does not, so the tests do not keep connections alive (`pipelining: 0`).
 */
import { Agent, setGlobalDispatcher } from 'undici';

setGlobalDispatcher(new Agent({ pipelining: 0 }));
