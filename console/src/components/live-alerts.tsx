import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

export interface FrictionAlert {
  alert_id: string;
  page: string;
  day: string;
  friction_index: number;
  users_affected: number;
  timestamp: string;
}

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/**
 * friction_alerts from the stream (/v1/stream), live. The stream's auth message takes a one-use
 * token the session asks for (POST /v1/console/stream-token), since a WebSocket cannot carry the
 * session's CSRF header. A dropped connection is opened again, waiting longer each time (≤ 30 s).
 */
export function useFrictionAlerts(): { status: LiveStatus; alerts: FrictionAlert[] } {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [alerts, setAlerts] = useState<FrictionAlert[]>([]);
  useEffect(() => {
    let socket: WebSocket | undefined;
    let timer: number | undefined;
    let failures = 0;
    let stopped = false;
    const retry = () => {
      if (stopped) return;
      setStatus('reconnecting');
      const wait = Math.min(30_000, 1000 * 2 ** failures++);
      timer = window.setTimeout(() => void connect(), wait);
    };
    const connect = async () => {
      let token: string;
      try {
        token = (await api<{ token: string }>('POST', '/console/stream-token')).token;
      } catch {
        retry();
        return;
      }
      if (stopped) return;
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${window.location.host}/v1/stream`);
      socket.onopen = () => socket?.send(JSON.stringify({ type: 'auth', api_key: token }));
      socket.onmessage = (event: MessageEvent<string>) => {
        const message = JSON.parse(event.data) as {
          type?: string;
          channel?: string;
          data?: Omit<FrictionAlert, 'timestamp'>;
          timestamp?: string;
        };
        if (message.type === 'auth_ok')
          socket?.send(JSON.stringify({ type: 'subscribe', channels: ['friction_alerts'] }));
        else if (message.type === 'subscribed') {
          failures = 0;
          setStatus('live');
        } else if (message.channel === 'friction_alerts' && message.data) {
          const alert = { ...message.data, timestamp: message.timestamp ?? new Date().toISOString() };
          setAlerts((list) => [alert, ...list.filter((a) => a.alert_id !== alert.alert_id)].slice(0, 50));
        }
      };
      socket.onclose = () => retry();
    };
    void connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      if (socket) {
        socket.onclose = null;
        socket.close();
      }
    };
  }, []);
  return { status, alerts };
}
