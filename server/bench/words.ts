// Vocabulary for the seeded dataset. Message text is built from these words in SQL, with a
// skewed pick (early words are common, late ones rare) so full-text search meets both
// frequent and selective terms, as it does on a real helpdesk.

function unique(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter((word) => word !== ''))];
}

export const WORDS: readonly string[] = unique(`
the to and a of i for is my it you in this we have on not with that be can please order
your are thanks hi hello account help will as but me from at our an if when was do get
so would just there what they been issue problem any need could all one time know team
again out up about still how now payment invoice refund shipping delivery password login
email support ticket update today working error page app reply customer service price
plan subscription billing card charge cancel upgrade downgrade trial renewal receipt
package tracking address return exchange size color product item stock available week
month day yesterday tomorrow morning evening hour minute website browser phone mobile
android iphone desktop laptop version install download upload file attachment photo
screenshot link button setting settings profile username reset code verification
security access permission admin user users invite workspace project report export
import data sync calendar notification notifications message messages chat call meeting
schedule appointment booking reservation confirm confirmation number reference discount
coupon promo voucher gift balance credit debit bank transfer paypal invoice vat tax
company business address postcode country region language currency euro dollar pound
slow fast broken crash freeze loading timeout blank screen missing wrong duplicate
charged twice late damaged lost stuck pending failed declined expired locked blocked
urgent asap quickly soon follow following followup regards kind best sincerely cheers
thank appreciate sorry unfortunately happy glad understand explain clarify question
answer information details documentation guide tutorial feature request suggestion
feedback review rating complaint escalate manager supervisor refunded replaced repaired
warranty guarantee policy terms privacy gdpr consent delete remove close open reopen
integration api webhook token key secret oauth sso saml domain dns certificate ssl
server outage downtime maintenance incident status latency performance database backup
restore migrate migration spreadsheet csv pdf excel printer scanner keyboard monitor
battery charger cable adapter bluetooth wifi network router firewall vpn proxy
kitchen garden furniture sofa table chair lamp mattress pillow blanket curtain rug
shoes jacket shirt dress trousers jeans sweater coat boots sneakers socks hat scarf
coffee tea beans grinder machine filter mug kettle blender toaster oven fridge freezer
bicycle helmet tyre saddle pedal chain brake gear frame wheel scooter skateboard
headphones speaker microphone camera lens tripod drone watch strap band tracker
subscription seats license licence enterprise starter professional premium basic
onboarding training webinar demo sandbox staging production environment deploy release
changelog roadmap beta preview bug fix patch hotfix regression workaround reproduce
steps expected actual behaviour behavior logs console stacktrace exception crashlytics
café résumé naïve façade crème straße smørrebrød łódź œuvre 我的密码重置不了 パスワードを忘れました 비밀번호를
zanzibar quokka fjord marmalade tambourine origami pelican saffron cobalt juniper
`);

export const FIRST_NAMES: readonly string[] = `
Aisha Ben Carla Diego Elena Farid Grace Hugo Ines Jonas Keiko Liam Maya Noah Olga Pablo
Quentin Rosa Samir Tara Umar Vera Wen Xavier Yara Zoe Amelia Bruno Chloe Dmitri Emma Felix
Gita Hannah Ivan Julia Kofi Lena Marco Nadia Oscar Priya Rahul Sofia Tomas Uma Viktor Wanda
`
  .split(/\s+/)
  .filter((word) => word !== '');

export const LAST_NAMES: readonly string[] = `
Abbott Bauer Castillo Dubois Eriksen Fischer Garcia Hansen Ivanova Jensen Kowalski Laurent
Moreau Novak Okafor Petrov Quinn Rossi Schmidt Tanaka Ueda Vargas Weber Xu Yilmaz Zimmermann
Alvarez Brown Chen Dahl Evans Fontaine Gupta Horvat Iqbal Johansson Kim Lopez Muller Nguyen
`
  .split(/\s+/)
  .filter((word) => word !== '');

const TAG_TOPICS = `
billing refund shipping delivery login password bug feature-request onboarding cancellation
upgrade downgrade invoice payment-failed chargeback damaged missing-item return exchange
warranty integration api webhook sso security privacy gdpr outage performance mobile
android ios desktop browser import export reporting notifications email chat phone
`
  .split(/\s+/)
  .filter((word) => word !== '');

const TAG_QUALIFIERS = ['', 'vip', 'escalated', 'follow-up', 'needs-info'];

/** 200 distinct tag names: 40 topics × 5 qualifiers. */
export function tagNames(count: number): string[] {
  const names: string[] = [];
  for (const qualifier of TAG_QUALIFIERS) {
    for (const topic of TAG_TOPICS) names.push(qualifier ? `${topic}-${qualifier}` : topic);
  }
  return names.slice(0, count);
}
