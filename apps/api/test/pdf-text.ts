import { PDFParse } from 'pdf-parse';

/** The text of a PDF the API answered, as pdf-parse reads it (what a customer could copy). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  const { text } = await parser.getText();
  await parser.destroy();
  return text;
}
