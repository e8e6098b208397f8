/** The console's own alert sounds: a short two-tone chime (Web Audio) and spoken text. */

let context: AudioContext | undefined;

function audioContext(): AudioContext | undefined {
  const Ctor =
    typeof window === 'undefined'
      ? undefined
      : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctor) return undefined;
  context ??= new Ctor();
  return context;
}

/** Plays a chime; `urgent` is higher and repeated. Silently nothing where the browser has no audio. */
export function playChime(urgent = false): void {
  const ctx = audioContext();
  if (!ctx) return;
  void ctx.resume?.();
  const tones = urgent ? [880, 660, 880, 660] : [660, 880];
  tones.forEach((frequency, i) => {
    const start = ctx.currentTime + i * 0.18;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + 0.17);
  });
}

/** Says `text` in `language` where the browser can speak; else a chime. */
export function speak(text: string, language: string): void {
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) {
    playChime(true);
    return;
  }
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language === 'tr' ? 'tr-TR' : 'en-US';
  window.speechSynthesis.speak(utterance);
}

/** Whether the browser can show desktop notifications, and what the person said. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}
