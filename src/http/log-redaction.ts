// Paths pino removes from every log line: API keys and passwords never reach the logs.
export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'body.password',
  'password',
  'api_key',
];
