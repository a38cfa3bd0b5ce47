import type { SendMailOptions } from 'nodemailer';
import type { ReportContent } from './data.js';
import { subjectOf, summaryText } from './present.js';
import type { RenderedReport } from './render.js';

/**
 * The mail of one run: one message to every recipient; HTML reports are the body, PDF and CSV
 * reports are attached to a plain-text summary.
 */
export function reportMessage(
  content: ReportContent,
  rendered: RenderedReport,
  from: string,
  to: string[],
): SendMailOptions {
  const message: SendMailOptions = { from, to, subject: subjectOf(content), text: summaryText(content) };
  if (rendered.format === 'html') return { ...message, html: rendered.body.toString('utf8') };
  return {
    ...message,
    attachments: [{ filename: rendered.fileName, content: rendered.body, contentType: rendered.contentType }],
  };
}
