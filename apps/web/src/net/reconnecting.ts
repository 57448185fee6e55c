/**
 * A WebSocket that reconnects by itself with a growing delay (0.5 s to 8 s), asking the
 * caller for the URL each time so it can resume where it stopped (`?since=`) or authenticate
 * with a fresh one-use ticket (the URL may come from a request).
 */
export interface Reconnecting {
  /** Sends a frame if the socket is open now; whether it was sent. */
  send(data: string): boolean;
  close(): void;
}

export interface ReconnectingOptions {
  readonly url: () => string | Promise<string>;
  readonly onMessage: (data: unknown) => void;
  readonly onStatus?: (connected: boolean) => void;
}

export function reconnecting(o: ReconnectingOptions): Reconnecting {
  let socket: WebSocket | null = null;
  let closed = false;
  let delay = 500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let opening = false;
  const retry = () => {
    if (closed) return;
    timer = setTimeout(open, delay);
    delay = Math.min(8000, delay * 2);
  };
  const open = () => {
    if (closed || opening) return;
    opening = true;
    Promise.resolve()
      .then(o.url)
      .then(
        (url) => {
          opening = false;
          connect(url);
        },
        () => {
          opening = false;
          retry();
        },
      );
  };
  const connect = (url: string) => {
    if (closed) return;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      delay = 500;
      o.onStatus?.(true);
    };
    ws.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      o.onMessage(data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      o.onStatus?.(false);
      retry();
    };
  };
  open();
  // a phone waking up: reconnect at once rather than after the back-off
  const online = () => {
    if (socket === null && !closed) {
      clearTimeout(timer);
      open();
    }
  };
  window.addEventListener('online', online);
  return {
    send(data) {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      socket.send(data);
      return true;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener('online', online);
      socket?.close();
    },
  };
}
